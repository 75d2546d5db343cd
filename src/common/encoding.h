/*
 * encoding.h -- PostgreSQL's character encodings: their numbers, names
 * and aliases, how long a character can be, and checking that bytes are
 * well formed in one of them.
 *
 * tupledb's database encoding is UTF8 (utf8.h checks it on every way in);
 * the other encodings matter where a user names one: convert_from,
 * convert_to, convert and length(bytea, name), pg_char_to_encoding and
 * friends, COPY's ENCODING option.  The numbers are PostgreSQL's
 * (pg_encoding_to_char(6) is 'UTF8'), 0..41, the last seven of them
 * client-only encodings in PostgreSQL.
 *
 *     int enc = tdb_encoding_from_name("iso-8859-1");   TDB_ENC_LATIN1
 *     tdb_encoding_verify(enc, s, len);                 22021 unless valid
 */
#ifndef TDB_COMMON_ENCODING_H
#define TDB_COMMON_ENCODING_H

#include "common/base.h"

/* The encodings this code knows by number; the rest only by name. */
#define TDB_ENC_SQL_ASCII 0
#define TDB_ENC_UTF8 6
#define TDB_ENC_MULE_INTERNAL 7
#define TDB_ENC_LATIN1 8
#define TDB_ENC_COUNT 42

/*
 * The encoding a name stands for, or -1 if none.  Names match as in
 * PostgreSQL's pg_char_to_encoding: only letters and digits count, case
 * ignored ('UTF-8', 'utf8', 'Unicode' are UTF8; 'ISO_8859_1', 'latin1'
 * are LATIN1), and aliases such as 'WIN' or 'mskanji' are known.
 */
int tdb_encoding_from_name(const char *name);

/* The canonical name of encoding enc ("LATIN1"), or NULL if enc is not
 * an encoding number. */
const char *tdb_encoding_name(int enc);

/* The most bytes a character of enc takes (1 for the single-byte
 * encodings), or 0 if enc is not an encoding number. */
int tdb_encoding_max_length(int enc);

/*
 * The number of characters in s[0..len), which must be well formed in
 * enc (UTF8: utf8.h's rules; SQL_ASCII and the single-byte encodings:
 * no NUL byte); raises PostgreSQL's 22021 `invalid byte sequence for
 * encoding "LATIN1": 0x00` otherwise.  The multibyte encodings other than
 * UTF8 (EUC_JP, SJIS, ...) are checked only as far as ASCII goes: a byte
 * above 7F in one of them raises 0A000.
 */
Size tdb_encoding_verify(int enc, const char *s, Size len);

/* Room for tdb_encoding_char_hex's text: " 0x00" four times and a NUL. */
#define TDB_ENC_CHAR_HEX_SIZE 21

/*
 * The bytes of the character at s[0..len) (len >= 1), as PostgreSQL's
 * messages list them (" 0xe2 0x82 0xac"), into buf (TDB_ENC_CHAR_HEX_SIZE
 * bytes): as many bytes as the first one announces in enc (1 in the
 * single-byte encodings and for a UTF-8 byte that starts no sequence),
 * fewer when s ends first.
 */
void tdb_encoding_char_hex(int enc, const char *s, Size len, char *buf);

/*
 * Raise 0A000 for a conversion between src and dst that PostgreSQL
 * makes but tupledb does not yet.
 */
TDB_NORETURN TDB_COLD void tdb_encoding_report_unsupported(int src, int dst);

/*
 * Raise 22P05 `character with byte sequence 0xe2 0x82 0xac in encoding
 * "UTF8" has no equivalent in encoding "LATIN1"` for the character at s
 * (len >= 1 bytes available), which is in src.
 */
TDB_NORETURN TDB_COLD void
tdb_encoding_report_untranslatable(int src, int dst, const char *s, Size len);

/*
 * Whether PostgreSQL 15 has a default conversion from src to dst (a
 * pg_conversion row marked default), for two different encodings
 * neither of which is SQL_ASCII.
 */
bool tdb_encoding_has_conversion(int src, int dst);

#endif /* TDB_COMMON_ENCODING_H */
