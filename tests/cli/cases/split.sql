-- every statement below is a syntax error on purpose, so that PostgreSQL
-- and tupledb answer the same; -e shows the exact text each one sent
   -- an indented comment before the first statement
one 'a;b' "c;d" E'e\';f' $$g;h$$ $x$ i;$$; $x$ (j; k) /* l; /* nested; */ m; */ last;
two -- a comment; with a semicolon
  and more;


three 'a string
continued; over lines' ;four;five
six a$b$c $1 $tag$ dollar $ta$ not yet; $tag$ done;
seven \; eight;
nine U&'\0041;' U&"x;y" B'01' X'ff' N'n;n';
ten ((
  ;
)) end;
CREATE FUNCTION f() garbage BEGIN ATOMIC SELECT 1; SELECT 2; END;
eleven 'E''s' e'\\' ;
twelve without a semicolon at the end
