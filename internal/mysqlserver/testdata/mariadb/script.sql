-- MySQL-dialect statements run by the mariadb command-line client against
-- lakesql serve; mariadb_test.go compares the client's output with script.out.
SELECT @@version_comment, @@session.auto_increment_increment, @@character_set_client;
SHOW DATABASES;
USE shop;
SHOW FULL TABLES;
SHOW COLUMNS FROM items;
SELECT * FROM items ORDER BY id;
SELECT `id`, IFNULL(small, 0) AS small, IF(flag, 'yes', 'no') AS flag, CONCAT_WS('/', name, price) AS label FROM items ORDER BY id DESC LIMIT 1, 2;
SELECT id, DATE_FORMAT(at, '%Y-%m-%d %H:%i:%s') AS at, UNIX_TIMESTAMP(at) AS secs, DATE_ADD(day, INTERVAL 1 MONTH) AS next_month FROM items ORDER BY id;
SELECT STR_TO_DATE('2026-02-03', '%Y-%m-%d') AS d, FROM_UNIXTIME(0) AS epoch, 7 DIV 2 AS q, -7 DIV 2 AS nq;
SELECT name, price FROM items WHERE price IS NOT NULL AND name LIKE 'a%' UNION ALL SELECT 'total', SUM(price) FROM items;
SELECT * FROM nonexistent;
SELEC 1;
USE tutorial;
SELECT event_type, COUNT(*) AS events, COUNT(DISTINCT user_id) AS users FROM retail_clickstream_events WHERE event_time >= '2026-01-02' AND event_time < DATE_ADD('2026-01-02', INTERVAL 1 DAY) GROUP BY event_type ORDER BY events DESC, event_type;
SELECT event_date, SUM(event_count) AS events, RANK() OVER (ORDER BY SUM(event_count) DESC) AS r FROM retail_daily_traffic_summary GROUP BY event_date ORDER BY event_date;
SELECT table_name, table_type, engine FROM information_schema.tables WHERE table_schema = 'tutorial' ORDER BY table_name;
SHOW VARIABLES LIKE 'time_zone';
SET time_zone = '+00:00';
SHOW VARIABLES LIKE 'time_zone';
SELECT CONVERT_TZ('2024-03-10 02:30:00', 'America/New_York', 'UTC') AS gap, CONVERT_TZ('2016-01-01 12:00:00', '+00:00', 'Nowhere/Zone') AS unknown, TIMEDIFF('2008-12-31 23:59:59.000001', '2008-12-30 01:01:01.000002') AS diff, TIME_FORMAT(TIMEDIFF('2024-01-01 00:00:00', '2024-01-01 05:30:00'), '%H:%i') AS neg;
SET memory_limit = '1MB';
SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY event_id) AS r FROM retail_clickstream_events) w;
