-- An error stops the script; its position is the file's line and column.
SELECT 1 AS one;

SELECT 2 AS two; SELECT count(*
  FROM nowhere;
SELECT 'not run';
