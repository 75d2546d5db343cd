CREATE TABLE t (a int, b text, c text, d text, e text, f text, g text, h nosuchtype);
CREATE TABLE t (a nosuchtype, b text, c text, d text, e text, f text, g text, h text);
CREATE TABLE t (a int, b text, c text, d text, e text, f text, g text, h text, i text, j nosuchtype, k text, l text, m text, n text);
CREATE TABLE t (
    a int,
	b	nosuchtype
);
CREATE TABLE "日本語のテーブル" ("列" int, "コラム" nosuchtype);
CREATE TABLE t (a int) WITH OIDS garbage;
SELEC 1; CREATE TABLE u (a int);
CREATE TABLE t (a int,
                b text, c text, d text, e text, f text, g text, h text, i text, j nosuchtype, k text, l text, m text, n text);
CREATE TABLE t (a int, b text, c text, d text, e text, f text, g text, h text, i text, j text, k text, l text, m text, n text,
  o nosuchtype);
