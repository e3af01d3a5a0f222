package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

const dotHelp = `Enter SQL statements terminated by ';'. A statement may span several lines.
Dot commands (at the start of a line; in scripts and pipes too):
  .help                 show this help
  .tables               list the tables of the warehouse
  .schema [TABLE]       show CREATE TABLE of TABLE, or of every table
  .mode [MODE [TABLE]]  set the output mode: table (box), line, list, csv,
                        tsv, json, jsonl, markdown, html, insert (TABLE names
                        the table of insert; default tbl)
  .headers on|off       column names in list, csv, tsv and html
  .nullvalue TEXT       print NULL as TEXT ("" for nothing)
  .maxrows N            table mode shows the first and last N/2 rows of longer
                        results (default 40 on a terminal; -1 for all)
  .maxwidth N           fit tables into N columns (0: the terminal's width)
  .output [FILE]        send output to FILE, or back to standard output
  .once FILE            send the next statement's output to FILE
  .read FILE            run the statements and dot commands in FILE
  .timer on|off         print the run time after each statement
  .show                 show the current settings
  .quit, .exit          leave the shell (exit, quit and Ctrl-D too)
Ctrl-C cancels the running statement, or clears the current input.
`

// dotCommand runs a shell command such as ".mode csv".
func (sh *shell) dotCommand(ctx context.Context, line string) (quit bool, err error) {
	name, args, err := splitCommand(line)
	if err != nil {
		return false, err
	}
	switch name {
	case ".quit", ".exit":
		return true, sh.out.Flush()
	case ".help":
		_, err = io.WriteString(sh.out, dotHelp)
	case ".tables":
		err = sh.printTables(ctx)
	case ".schema":
		err = sh.printSchema(ctx, args)
	case ".mode":
		err = sh.setMode(args)
	case ".timer":
		err = onOff(name, args, &sh.timer)
	case ".headers":
		err = onOff(name, args, &sh.opts.headers)
	case ".nullvalue":
		if len(args) != 1 {
			return false, errors.New(`usage: .nullvalue TEXT (use "" for an empty text)`)
		}
		sh.opts.null = &args[0]
	case ".maxrows":
		err = setInt(name, args, &sh.maxRows, &sh.maxRowsSet)
	case ".maxwidth":
		err = setInt(name, args, &sh.maxWidth, &sh.maxWidthSet)
	case ".output":
		if len(args) > 1 {
			return false, errors.New("usage: .output [FILE]")
		}
		err = sh.setOutput(strings.Join(args, ""))
	case ".once":
		if len(args) != 1 {
			return false, errors.New("usage: .once FILE")
		}
		if err = sh.setOutput(args[0]); err == nil {
			sh.once = true
		}
	case ".read":
		if len(args) != 1 {
			return false, errors.New("usage: .read FILE")
		}
		return sh.readFile(ctx, args[0])
	case ".show":
		err = sh.show()
	default:
		return false, fmt.Errorf("unknown command %s (enter .help for the list)", name)
	}
	if ferr := sh.out.Flush(); err == nil {
		err = ferr
	}
	return false, err
}

// readFile runs a script file; its statements fail with file positions.
func (sh *shell) readFile(ctx context.Context, name string) (quit bool, err error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err // *PathError already names the file
	}
	defer f.Close()
	return sh.runScript(ctx, f, name, caretScript)
}

// splitCommand splits a dot command into words; single or double quotes
// group words, so `.nullvalue ""` and `.output "my file.txt"` work.
func splitCommand(line string) (name string, args []string, err error) {
	var words []string
	var word strings.Builder
	inWord, quote := false, rune(0)
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return "", nil, fmt.Errorf("unterminated %c in %s", quote, line)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words[0], words[1:], nil
}

func onOff(name string, args []string, v *bool) error {
	if len(args) != 1 || (args[0] != "on" && args[0] != "off") {
		return fmt.Errorf("usage: %s on|off", name)
	}
	*v = args[0] == "on"
	return nil
}

func setInt(name string, args []string, v *int, set *bool) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: %s N", name)
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return fmt.Errorf("usage: %s N (%q is not a number)", name, args[0])
	}
	*v, *set = n, true
	return nil
}

func (sh *shell) printTables(ctx context.Context) error {
	for _, name := range sh.sess.TableNames(ctx) {
		if _, err := fmt.Fprintln(sh.out, name); err != nil {
			return err
		}
	}
	return nil
}

// printSchema prints SHOW CREATE TABLE of the named tables, or of all.
func (sh *shell) printSchema(ctx context.Context, args []string) error {
	tables := args
	if len(tables) == 0 {
		tables = sh.sess.TableNames(ctx)
	}
	o := renderOptions{format: formatListMode, null: new(string)}
	for _, name := range tables {
		res, err := sh.sess.Exec(ctx, "SHOW CREATE TABLE "+name)
		if err != nil {
			return err
		}
		if err := renderResult(ctx, res, o, sh.out); err != nil {
			return err
		}
	}
	return nil
}

func (sh *shell) setMode(args []string) error {
	if len(args) == 0 {
		_, err := fmt.Fprintf(sh.out, "current output mode: %s\n", sh.opts.format)
		return err
	}
	f, err := parseFormat(args[0])
	if err != nil {
		return err
	}
	switch {
	case len(args) == 2 && f == formatInsert:
		sh.opts.insertTable = args[1]
	case len(args) > 1:
		return errors.New("usage: .mode MODE (.mode insert TABLE)")
	}
	sh.opts.format = f
	return nil
}

// show prints the settings, one per line, as DuckDB's .show does.
func (sh *shell) show() error {
	null := "(mode default)"
	if sh.opts.null != nil {
		null = strconv.Quote(*sh.opts.null)
	}
	output := "stdout"
	if sh.file != nil {
		output = sh.fileName
	}
	o := sh.renderOptions()
	settings := []struct{ name, value string }{
		{"mode", string(sh.opts.format)},
		{"headers", onOffText(sh.opts.headers)},
		{"nullvalue", null},
		{"output", output},
		{"maxrows", limitText(o.maxRows)},
		{"maxwidth", limitText(o.maxWidth)},
		{"timer", onOffText(sh.timer)},
	}
	var b strings.Builder
	for _, s := range settings {
		fmt.Fprintf(&b, "%9s: %s\n", s.name, s.value)
	}
	_, err := io.WriteString(sh.out, b.String())
	return err
}

func onOffText(v bool) string {
	if v {
		return "on"
	}
	return "off"
}

func limitText(n int) string {
	if n <= 0 {
		return "no limit"
	}
	return strconv.Itoa(n)
}
