-- Every output mode and dot command, run from a file and from a pipe.
CREATE NAMESPACE s;
CREATE TABLE s.t (id INT, name VARCHAR, score DOUBLE);
INSERT INTO s.t VALUES (1, 'ann', 2.5), (2, NULL, NULL), (3, 'o''neil, "jr"', -1);
.mode table
SELECT * FROM s.t ORDER BY id;
.mode line
SELECT * FROM s.t ORDER BY id;
.mode list
SELECT * FROM s.t ORDER BY id;
.mode csv
SELECT * FROM s.t ORDER BY id;
.mode tsv
SELECT * FROM s.t ORDER BY id;
.mode json
SELECT * FROM s.t ORDER BY id;
.mode jsonl
SELECT * FROM s.t ORDER BY id;
.mode markdown
SELECT * FROM s.t ORDER BY id;
.mode html
SELECT * FROM s.t ORDER BY id;
.mode insert s.copy
SELECT * FROM s.t ORDER BY id;
-- .once writes one result to a file; .read runs it back.
.once copy.sql
SELECT * FROM s.t ORDER BY id;
CREATE TABLE s.copy (id INT, name VARCHAR, score DOUBLE);
.read copy.sql
.mode csv
.headers off
.nullvalue (null)
SELECT * FROM s.copy ORDER BY id;
.headers on
.nullvalue ""
.output out.txt
SELECT count(*) AS n FROM s.copy;
.output
.mode table
.maxrows 2
.maxwidth 30
SELECT id, name, score, name AS again, id * 10 AS tens FROM s.t ORDER BY id;
.maxrows -1
.maxwidth 0
.show
.schema
.tables
.timer off
SELECT 'still here' AS status;
quit
SELECT 'not run';
