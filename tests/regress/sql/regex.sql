--
-- Regular expressions: ~ ~* !~ !~* on text, bpchar and name,
-- regexp_replace, regexp_like, regexp_count, regexp_instr,
-- regexp_substr, substring(... FROM pattern), SIMILAR TO,
-- similar_to_escape and substring(... SIMILAR ... ESCAPE ...).
-- Everything here behaves the same in PostgreSQL's ARE engine and in
-- tupledb's PCRE2 translation (see src/types/README.md for where they
-- differ).
--

-- the four operators
SELECT 'abc' ~ 'b' AS match, 'abc' ~ 'B' AS case_sensitive, 'abc' ~* 'B' AS icase,
       'abc' !~ 'b' AS not_match, 'abc' !~* 'B' AS not_icase, 'abc' !~ 'x' AS not_x;
SELECT 'abc' ~ '' AS empty_pattern, '' ~ '^$' AS empty_subject, '' ~ 'a' AS empty_no;
SELECT NULL ~ 'a' AS null_subject, 'a' ~ NULL AS null_pattern, NULL !~* NULL AS both_null;
-- anchors, classes, quantifiers, alternation, groups
SELECT 'abc' ~ '^abc$' AS anchored, 'xabc' ~ '^abc' AS not_at_start, 'a+b' ~ 'a\+b' AS escaped_plus,
       'aaa' ~ '^a{3}$' AS bound, 'aaaa' ~ '^a{2,3}$' AS bound_over, 'ab' ~ '^a{1,}b' AS open_bound;
SELECT 'a1' ~ '\d' AS digit, 'a1' ~ '^\D\d$' AS non_digit, E'\t ' ~ '^\s+$' AS space,
       'a_1' ~ '^\w+$' AS word, 'a-1' ~ '^\w+$' AS not_word, 'ab' ~ '^\S\W?\S$' AS non_space;
SELECT 'abc' ~ '[[:alpha:]]+' AS alpha, 'ABC' ~ '^[[:upper:]]+$' AS upper, '123' ~ '^[[:digit:]]{3}$' AS digits,
       'a]' ~ '[]]' AS bracket_first, 'a-b' ~ '^a[-]b$' AS dash, 'x' ~ '[^abc]' AS negated,
       'é' ~ '^[^a]$' AS utf8_negated;
SELECT 'cat' ~ '^(cat|dog)$' AS alt, 'cow' ~ '^(cat|dog)$' AS alt_no, 'abab' ~ '^(ab)+$' AS group_plus,
       'abcabc' ~ '^(abc)\1$' AS backref, 'abcabd' ~ '^(abc)\1$' AS backref_no, 'ab' ~ '^(?:a)(b)$' AS non_capturing;
SELECT 'abc' ~ 'a(?=b)' AS lookahead, 'abc' ~ 'a(?!b)' AS neg_lookahead,
       'abc' ~ '(?<=a)b' AS lookbehind, 'abc' ~ '(?<!a)b' AS neg_lookbehind;
SELECT 'é' ~ '^.$' AS one_char, '日本' ~ '^..$' AS two_chars, 'naïve' ~ 'ï' AS utf8_literal;
-- newlines: . matches newline, ^ and $ only at the ends, unless (?n)
SELECT E'a\nb' ~ 'a.b' AS dot_newline, E'a\nb' ~ '^b' AS caret, E'ab\n' ~ 'b$' AS dollar,
       E'a\nb' ~ '(?n)^b' AS n_caret, E'a\nb' ~ '(?n)a.b' AS n_dot, E'ab\n' ~ '(?n)b$' AS n_dollar;
-- ARE-specific escapes and options
SELECT 'foo bar' ~ '\mbar\M' AS word_bounds, 'foobar' ~ '\ybar' AS y_no, 'foo bar' ~ '\ybar' AS y_yes,
       'ab' ~ 'a\Yb' AS big_y, 'foo bar' ~ '[[:<:]]bar[[:>:]]' AS old_bounds, 'abc' ~ '\Aabc\Z' AS a_z;
SELECT 'aB' ~ '(?i)ab' AS embedded_i, 'AB' ~* '(?c)ab' AS embedded_c, 'a.b' ~ '***=a.b' AS literal,
       'axb' ~ '***=a.b' AS literal_no, 'ab' ~ '***:a b' AS director, 'ab' ~ '(?x)a b # comment' AS expanded;
SELECT 'a{b' ~ 'a{b' AS literal_brace, 'a{x}' ~ 'a{,2}' AS brace_no_digit, 'a' ~ '[[.a.]]' AS collating,
       'a' ~ '[[=a=]]' AS equivalence, 'x' ~ '\u0078' AS u_escape, 'A' ~ '\x41' AS x_escape,
       E'a\bb' ~ 'a\bb' AS backspace, 'a\b' ~ 'a\Bb' AS backslash_syn;
SELECT 'aaa' ~ 'a*?' AS lazy, 'ab' ~ '(?#comment)ab' AS comment, 'Ab' ~ '[[:upper:]][[:lower:]]' AS classes;

-- invalid patterns
SELECT 'abc' ~ '(';
SELECT 'abc' ~ 'a)';
SELECT 'abc' ~ '[a';
SELECT 'abc' ~ '*a';
SELECT 'abc' ~ 'a**';
SELECT 'abc' ~ 'a{1}{2}';
SELECT 'abc' ~ 'a*+';
SELECT 'abc' ~ '^*';
SELECT 'abc' ~ '(?=a)*';
SELECT 'abc' ~ 'a{2,1}';
SELECT 'abc' ~ 'a{256}';
SELECT 'abc' ~ 'a{1';
SELECT 'abc' ~ '\1';
SELECT 'abc' ~ '(a)\2';
SELECT 'abc' ~ '[[:foo:]]';
SELECT 'abc' ~ '[z-a]';
SELECT 'abc' ~ '[a-\d]';
SELECT 'abc' ~ 'a\';
SELECT 'abc' ~ '\q';
SELECT 'abc' ~ '\h';
SELECT 'abc' ~ '\u12';
SELECT 'abc' ~ '[[.ab.]]';
SELECT 'abc' ~ '(?z)a';
SELECT 'abc' ~ '(?i';
SELECT 'abc' ~ 'a(?i)b';
SELECT 'abc' ~ '(?<n>a)';
SELECT 'abc' ~ '(?P<n>a)';

-- bpchar keeps its padding, name is matched as it is
SELECT 'a '::char(3) ~ 'a$' AS padded, 'a '::char(3) ~ '^a  $' AS with_padding,
       'ab'::char(2) ~* 'AB' AS bpchar_icase, 'ab'::char(2) !~ 'b' AS bpchar_not;
SELECT 'pg_class'::name ~ '^pg_' AS name_match, 'PG'::name ~* 'pg' AS name_icase,
       'pg'::name !~ 'x' AS name_not, 'pg'::name !~* 'P' AS name_not_icase;

-- in a table: a constant pattern and one that changes per row
CREATE TABLE words (id int, w text, pat text);
INSERT INTO words VALUES (1, 'apple', '^a'), (2, 'banana', 'an+'), (3, 'cherry', 'r{2}'),
  (4, 'date', '^D'), (5, NULL, 'x'), (6, 'Elder', NULL), (7, 'fig', '[aeiou]g$'), (8, 'grape', '^a');
SELECT id, w FROM words WHERE w ~ 'a' ORDER BY id;
SELECT id, w FROM words WHERE w ~* '^[a-d]' ORDER BY id;
SELECT id, w FROM words WHERE w !~ 'e' ORDER BY id;
SELECT id, w ~ pat AS m, w ~* pat AS mi FROM words ORDER BY id;
SELECT count(*) FILTER (WHERE w ~ 'an') AS an, count(*) FILTER (WHERE w ~ '^(a|b|c)') AS abc FROM words;
SELECT id, w FROM words WHERE w ~ '(';

-- regexp_replace
SELECT regexp_replace('abcabc', 'b', 'x') AS first, regexp_replace('abcabc', 'b', 'x', 'g') AS global,
       regexp_replace('ABC', 'b', 'x', 'i') AS icase, regexp_replace('ABCabc', 'b', 'x', 'gi') AS both;
SELECT regexp_replace('hello world', '(\w+) (\w+)', '\2 \1') AS swapped,
       regexp_replace('hello world', 'o', '[\&]', 'g') AS whole_match,
       regexp_replace('abc', 'b', '\\') AS backslash, regexp_replace('abc', '(b)', '\1\1\3') AS missing_group;
SELECT regexp_replace('hello world', '(\w+) (\w+)', '\2 \1 \& \\ \0 \3 \a') AS mixed,
       regexp_replace('abc', 'b', 'x\') AS trailing_backslash;
SELECT regexp_replace('abc', '', 'X', 'g') AS empty_matches, regexp_replace('abc', 'x*', '-', 'g') AS star,
       regexp_replace('aaa', 'a*?', 'x', 'g') AS lazy_empty, regexp_replace('abc', '(?<=a)b', 'X') AS lookbehind;
SELECT regexp_replace('aaa', '^a', 'x', 'g') AS caret_once, regexp_replace(E'a\na', '^a', 'x', 'gn') AS caret_lines,
       regexp_replace('ab', '(a)|(b)', '[\1|\2]', 'g') AS unset_groups, regexp_replace('éaé', 'a', 'ü') AS utf8;
SELECT regexp_replace('abc', 'b', 'x', 'c') AS c_flag, regexp_replace('ABC', 'b', 'x', 'ic') AS last_wins,
       regexp_replace('a.b', '.', '-', 'gq') AS quoted;
SELECT regexp_replace(NULL, 'b', 'x') AS n1, regexp_replace('a', NULL, 'x') AS n2,
       regexp_replace('a', 'a', NULL) AS n3, regexp_replace('a', 'a', 'x', NULL) AS n4;
SELECT regexp_replace('abcabcabc', 'b', 'X', 5) AS from5, regexp_replace('abcabcabc', 'b', 'X', 2, 2) AS second,
       regexp_replace('abcabcabc', 'b', 'X', 1, 0) AS all_, regexp_replace('abcabcabc', 'b', 'X', 1, 2, 'g') AS n_wins,
       regexp_replace('abcabc', 'B', 'X', 1, 0, 'i') AS n_flags, regexp_replace('abc', 'b', 'X', 10) AS past_end;
SELECT regexp_replace('ééxéx', 'x', '-', 4) AS char_start;
SELECT regexp_replace('abc', 'b', 'x', 'z');
SELECT regexp_replace('abc', 'b', 'x', 'gé');
SELECT regexp_replace('abcabc', 'b', 'X', 0);
SELECT regexp_replace('abcabc', 'b', 'X', 1, -1);
SELECT regexp_replace('abc', '[', 'x');
SELECT id, regexp_replace(w, '[aeiou]', '*', 'g') FROM words ORDER BY id;

-- regexp_like, regexp_count, regexp_instr, regexp_substr
SELECT regexp_like('abc', 'B') AS l1, regexp_like('abc', 'B', 'i') AS l2, regexp_like('abc', '^b') AS l3;
SELECT regexp_like('abc', 'b', 'g');
SELECT regexp_count('abcabc', 'b') AS c1, regexp_count('abcabc', 'b', 3) AS c2, regexp_count('abc', '') AS c3,
       regexp_count('ABab', 'a', 1, 'i') AS c4, regexp_count('aaa', 'a*') AS c5, regexp_count('', 'x') AS c6;
SELECT regexp_count('abc', 'b', 0);
SELECT regexp_count('abc', 'b', 1, 'g');
SELECT regexp_instr('abcabc', 'b') AS i1, regexp_instr('abcabc', 'b', 1, 2) AS i2, regexp_instr('abcabc', 'b', 1, 2, 1) AS i3,
       regexp_instr('abcabc', '(b)(c)', 1, 1, 0, '', 2) AS i4, regexp_instr('abc', 'x') AS i5,
       regexp_instr('abc', 'b', 1, 5) AS i6, regexp_instr('ébc', 'c') AS i7, regexp_instr('abc', '(b)', 1, 1, 0, '', 3) AS i8;
SELECT regexp_instr('abc', 'b', 1, 1, 2);
SELECT regexp_instr('abc', 'b', 1, 0);
SELECT regexp_instr('abc', 'b', 1, 1, 0, '', -1);
SELECT regexp_substr('abcabc', 'b.') AS s1, regexp_substr('abcabc', '(b)(c)', 1, 2, '', 2) AS s2,
       regexp_substr('abc', 'x') AS s3, regexp_substr('ABC', 'b', 1, 1, 'i') AS s4, regexp_substr('abc', '(x)?b', 1, 1, '', 1) AS s5;
SELECT regexp_substr('abc', 'b', 1, 0);

-- substring(string FROM pattern): the first group, or the whole match
SELECT substring('foobar' FROM 'o(.)b') AS grp, substring('foobar' FROM 'o.b') AS whole,
       substring('foobar' FROM 'z') AS none, substring('foobar' FROM '(z)?b') AS unset_group,
       substring('foobar' FROM '(o+)(b)') AS first_of_two, substring('foobar', 'ba.') AS call_form;
SELECT substring('abc' FROM NULL) AS n1, substring(NULL FROM 'a') AS n2;
SELECT substring('abc' FROM '(');

-- SIMILAR TO
SELECT 'abc' SIMILAR TO 'a%' AS pct, 'abc' SIMILAR TO '(a|b)%' AS alt, 'abc' NOT SIMILAR TO 'b%' AS not_similar,
       'a.c' SIMILAR TO 'a.c' AS dot_literal, 'abc' SIMILAR TO 'a.c' AS dot_no, 'abc' SIMILAR TO 'a_c' AS underscore;
SELECT 'abc' SIMILAR TO 'abc' AS exact, 'abcd' SIMILAR TO 'abc' AS whole_string, 'aaa' SIMILAR TO 'a*' AS star,
       'ab' SIMILAR TO '[a-c]+' AS class, 'a%' SIMILAR TO 'a\%' AS escaped, 'a%' SIMILAR TO 'a#%' ESCAPE '#' AS custom_escape;
SELECT 'abc' SIMILAR TO 'abc' ESCAPE NULL AS null_escape, NULL SIMILAR TO 'a' AS null_subject, 'a' SIMILAR TO NULL AS null_pattern;
SELECT 'a' SIMILAR TO 'a' ESCAPE 'xy';
SELECT id, w FROM words WHERE w SIMILAR TO '%(an|er)%' ORDER BY id;
SELECT similar_to_escape('a%b_c') AS s1, similar_to_escape('a#%b', '#') AS s2, similar_to_escape('a.b*c') AS s3,
       similar_to_escape('a\b') AS s4, similar_to_escape('a\b', '#') AS s5;
SELECT similar_to_escape('[%_]x(y|z)', '') AS s6, similar_to_escape('a#"b#"c', '#') AS s7, similar_to_escape('^$.') AS s8,
       similar_to_escape('é_%') AS s9, similar_to_escape('aé', 'é') AS s10, similar_to_escape('[\d]') AS s11;
SELECT similar_to_escape('a', 'ab');
SELECT similar_to_escape('a#"b#"c#"d#"e', '#');
SELECT similar_to_escape('a', NULL) IS NULL AS n1, similar_to_escape(NULL) IS NULL AS n2;
SELECT substring('foobar' SIMILAR '%#"o_b#"%' ESCAPE '#') AS sim, substring('foobar' SIMILAR 'f#"o+#"%' ESCAPE '#') AS sim2,
       substring('foobar' SIMILAR '#"f%#"' ESCAPE '#') AS sim3, substring('foobar' SIMILAR 'x#"o#"%' ESCAPE '#') AS sim_none,
       substring('foobar' FROM '%#"o_b#"%' FOR '#') AS sql99;
SELECT substring('foobar' SIMILAR '%#"o#"%#"b' ESCAPE '#');
SELECT substring('aXbXc' SIMILAR '%#"X%#"' ESCAPE '#') AS first_part_short,
       substring('aXbXcX' SIMILAR '%#"X_#"%' ESCAPE '#') AS leftmost,
       substring('abc' SIMILAR 'a#"%#"' ESCAPE '#') AS tail;
SELECT substring('a' SIMILAR 'a' ESCAPE 'xy');
SELECT substring('x' SIMILAR '[' ESCAPE '#');
SELECT id, substring(w SIMILAR '%#"[aeiou][^aeiou]#"%' ESCAPE '#') FROM words ORDER BY id;

-- regexp_split_to_table: empty matches at the ends or right after a
-- separator do not split
SELECT regexp_split_to_table('hello  world', '\s+');
SELECT regexp_split_to_table('abc', '');
SELECT regexp_split_to_table(',a,,b,', ',');
SELECT regexp_split_to_table('abc', 'x*');
SELECT regexp_split_to_table('', 'x');
SELECT regexp_split_to_table('aBcbD', 'b', 'i');
SELECT regexp_split_to_table('abc', 'b', 'g');
SELECT regexp_split_to_table('abc', '(');
SELECT x FROM regexp_split_to_table('a1b22c333', '\d+') AS t(x);
SELECT id, piece FROM (SELECT id, regexp_split_to_table(w, '[aeiou]') AS piece FROM words) s ORDER BY id, piece;
