\set id random(1, 990)
SELECT id, v, n FROM small WHERE id BETWEEN :id AND :id + 9;
