-- DBeaver's MySQL plugin after Connector/J has connected (connectorj.sql):
-- MySQLDataSource reads the server's engines, charsets, collations and
-- settings, the navigator lists databases, tables, columns, indexes and
-- views, and the data editor reads the first page of a table.
SELECT DATABASE();
SHOW ENGINES;
SHOW CHARSET;
SHOW COLLATION;
SELECT @@GLOBAL.character_set_server,@@GLOBAL.collation_server;
SHOW VARIABLES LIKE 'lower_case_table_names';
SELECT * FROM information_schema.SCHEMATA;
SHOW FULL TABLES FROM `tutorial`;
SHOW TABLE STATUS FROM `tutorial`;
SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='tutorial' AND TABLE_NAME='retail_clickstream_events' ORDER BY ORDINAL_POSITION;
SHOW INDEX FROM `retail_clickstream_events` FROM `tutorial`;
SELECT * FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'tutorial';
SHOW FULL COLUMNS FROM `retail_daily_traffic_summary` FROM `tutorial`;
SELECT * FROM `tutorial`.`retail_daily_traffic_summary` LIMIT 0, 200;
SHOW WARNINGS;
SHOW CREATE TABLE `tutorial`.`retail_daily_traffic_summary`;
