-- DBeaver's MySQL plugin after Connector/J has connected (connectorj.sql):
-- MySQLDataSource.initialize reads the engines, charsets and collations
-- (SHOW ENGINES, SHOW CHARSET, SHOW COLLATION), the catalogs (CatalogCache:
-- SELECT * FROM information_schema.SCHEMATA) and the current database
-- (MySQLUtils.determineCurrentDatabase: SELECT DATABASE()), then makes a
-- catalog the default (useDatabase: use `name`); its session and status
-- views read SHOW VARIABLES and SHOW STATUS (loadParameters), all in
-- dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.mysql/src/org/jkiss/dbeaver/
-- ext/mysql/model/MySQLDataSource.java. Browsing a catalog lists its tables
-- (MySQLCatalog.TableCache: SHOW FULL TABLES FROM `name`), their columns
-- from information_schema.COLUMNS, their DDL (SHOW CREATE TABLE) and the
-- first page of rows.
SHOW ENGINES;
SHOW CHARSET;
SHOW COLLATION;
SELECT * FROM information_schema.SCHEMATA;
SELECT DATABASE();
use `tutorial`;
SHOW VARIABLES;
SHOW STATUS;
SHOW FULL TABLES FROM `tutorial`;
SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='tutorial' AND TABLE_NAME='retail_clickstream_events' ORDER BY ORDINAL_POSITION;
SHOW CREATE TABLE `tutorial`.`retail_daily_traffic_summary`;
SELECT * FROM `tutorial`.`retail_daily_traffic_summary` LIMIT 0, 200;
