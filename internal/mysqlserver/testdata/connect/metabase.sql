-- Metabase's MySQL driver (metabase/metabase src/metabase/driver/mysql.clj)
-- over MariaDB Connector/J, the JDBC driver it ships for MySQL:
-- the session setup Connector/J sends when it connects
-- (ConnectProtocol.sendSessionInfos: autocommit, session tracking,
-- jdbcCompliantTruncation's sql_mode), the can-connect? probe of
-- metabase.driver.sql-jdbc.connection, set-timezone-sql :mysql with the
-- report time zone UTC, and the SQL its query processor generates for a
-- question counted by event type and bucketed by sql.qp/date :day
-- (date(x)), :month (str_to_date of date_format '%Y-%m' and '-01'), :hour
-- (trunc-with-format '%Y-%m-%d %H' over CAST AS datetime), :year
-- (makedate(year(x), 1)), datetime-diff :day (datediff) and a relative
-- date filter (driver/date-interval: date_add(now(), INTERVAL n unit)),
-- and driver/db-default-timezone's query for the server's zone and offset.
set autocommit=1, session_track_schema=1, sql_mode = concat(@@sql_mode,',STRICT_TRANS_TABLES');
SELECT 1;
SELECT @@GLOBAL.time_zone AS global_tz, @@system_time_zone AS system_tz, time_format(timediff(now(), convert_tz(now(), @@GLOBAL.time_zone, '+00:00')), '%H:%i') AS offset;
SET @@session.time_zone = '+00:00';
SELECT `tutorial`.`retail_clickstream_events`.`event_type` AS `event_type`, COUNT(*) AS `count` FROM `tutorial`.`retail_clickstream_events` GROUP BY `tutorial`.`retail_clickstream_events`.`event_type` ORDER BY `tutorial`.`retail_clickstream_events`.`event_type` ASC LIMIT 1048575;
SELECT DATE(`tutorial`.`retail_clickstream_events`.`event_time`) AS `event_time`, COUNT(*) AS `count` FROM `tutorial`.`retail_clickstream_events` GROUP BY DATE(`tutorial`.`retail_clickstream_events`.`event_time`) ORDER BY DATE(`tutorial`.`retail_clickstream_events`.`event_time`) ASC LIMIT 1048575;
SELECT STR_TO_DATE(CONCAT(DATE_FORMAT(`tutorial`.`retail_clickstream_events`.`event_time`, '%Y-%m'), '-01'), '%Y-%m-%d') AS `event_time`, COUNT(*) AS `count` FROM `tutorial`.`retail_clickstream_events` GROUP BY STR_TO_DATE(CONCAT(DATE_FORMAT(`tutorial`.`retail_clickstream_events`.`event_time`, '%Y-%m'), '-01'), '%Y-%m-%d') ORDER BY STR_TO_DATE(CONCAT(DATE_FORMAT(`tutorial`.`retail_clickstream_events`.`event_time`, '%Y-%m'), '-01'), '%Y-%m-%d') ASC LIMIT 1048575;
SELECT STR_TO_DATE(DATE_FORMAT(CAST(`tutorial`.`retail_clickstream_events`.`event_time` AS datetime), '%Y-%m-%d %H'), '%Y-%m-%d %H') AS `event_time`, COUNT(*) AS `count` FROM `tutorial`.`retail_clickstream_events` GROUP BY STR_TO_DATE(DATE_FORMAT(CAST(`tutorial`.`retail_clickstream_events`.`event_time` AS datetime), '%Y-%m-%d %H'), '%Y-%m-%d %H') ORDER BY STR_TO_DATE(DATE_FORMAT(CAST(`tutorial`.`retail_clickstream_events`.`event_time` AS datetime), '%Y-%m-%d %H'), '%Y-%m-%d %H') ASC LIMIT 1048575;
SELECT MAKEDATE(YEAR(`tutorial`.`retail_clickstream_events`.`event_time`), 1) AS `event_time`, COUNT(*) AS `count` FROM `tutorial`.`retail_clickstream_events` GROUP BY MAKEDATE(YEAR(`tutorial`.`retail_clickstream_events`.`event_time`), 1) ORDER BY MAKEDATE(YEAR(`tutorial`.`retail_clickstream_events`.`event_time`), 1) ASC LIMIT 1048575;
SELECT DATEDIFF(MAX(`tutorial`.`retail_clickstream_events`.`event_time`), MIN(`tutorial`.`retail_clickstream_events`.`event_time`)) AS `days` FROM `tutorial`.`retail_clickstream_events`;
SELECT `tutorial`.`retail_clickstream_events`.`event_type` AS `event_type`, COUNT(*) AS `count` FROM `tutorial`.`retail_clickstream_events` WHERE `tutorial`.`retail_clickstream_events`.`event_time` >= DATE_ADD(NOW(), INTERVAL -30 day) GROUP BY `tutorial`.`retail_clickstream_events`.`event_type` ORDER BY `tutorial`.`retail_clickstream_events`.`event_type` ASC;
