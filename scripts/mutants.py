#!/usr/bin/env python3
"""Mutation audit: does the corpus notice when the reference is wrong?

Each mutant changes one small thing in a parser module of the reference (a comparison flipped,
`&&` for `||`, a `return true` for `return false`, a violation or diagnostic never reported),
builds `linkconform`, and runs the corpus against the reference with --strict. A mutant is
*killed* when some case stops passing, and *survives* when every case still passes: then either
the change makes no difference a case could see (a message, a fast path, a limit; an
"equivalent" mutant), or the corpus lacks a case, which is what this looks for.

  scripts/mutants.py list   [MODULE...]                  the mutation sites, one per line
  scripts/mutants.py run    [MODULE...] [options]        run mutants, append JSON lines to --out
  scripts/mutants.py recheck IN.jsonl [options]          run IN's survivors again (after adding cases)
  scripts/mutants.py report FILE.jsonl                   counts per module and every survivor, Markdown
  scripts/mutants.py selftest                            checks the mutant maker on a known snippet (a test runs it)

Options of run and recheck:
  --out FILE        JSON lines, one per mutant (default .build-mutants/mutants.jsonl; run
                    resumes: a mutant already in the file is not run again)
  --sample N        at most N condition mutants per module, drawn with --seed (default: all);
                    every "never reported" mutant is always run
  --seed S          seed of the sample (default 1)
  --kinds K         emit, cond or emit,cond (default)
  --corpus DIR      the corpus to judge with (default: the committed one, in the private tree);
                    give Corpus to use your working copy's, new uncommitted cases included
  --tests FILTER    also judge with the unit tests: a mutant the corpus leaves alive is built
                    with the tests (`swift build --build-tests`) and killed if `swift test
                    --filter FILTER` fails (status `killed-by-tests`, or `killed-by-tests-crash`
                    when the test binary traps). For code the corpus cannot reach, such as
                    AASA's compiled matcher: 'MatchProgramTests|AASACompiledMatcherCorpusTests'.
                    A mutant then costs 20 seconds to 1.5 minutes (the test binary is linked
                    again); its test run is stopped after five times the unmutated run's time
                    (at least 2 minutes) and counted killed (`killed-timeout`).

MODULE: ULC, XCallbackURL, XignQR, AASA, AssetLinks, MitIDAppSwitch, LinkURL (default: all).

It never touches your checkout: it works in a git worktree of its own (.build-mutants/tree,
checked out at HEAD, with its own debug build), restores each file after its mutant, and
resets the tree when it starts. Before the first mutant it checks that the unmutated tree
builds and passes the corpus; if not, every mutant would look killed, so it stops (exit 2).
A mutant costs about 3 to 10 seconds (an incremental debug build, then the suites the module
serves; AASA's take the longest); the first build of the tree about 6 minutes. The builds and
runs keep their temporary files in .build-mutants/tmp, emptied after each mutant (SwiftPM leaves
a few folders in the temporary directory at every build: thousands over an audit). A mutant that
makes a loop endless: `linkconform run` records a case that has not returned after 60 s
(`--in-process-timeout`) as `timedOut` and goes on (the run fails: `killed`); when such cases
hold every thread it ends the run with status 130 (`killed-timeout`). A run that has not ended
after 10 minutes (one that defeats a cache) is stopped and counted `killed-timeout` too.

Exit: 0 done, 2 it could not run (no git, the tree does not build, the baseline fails), 64 usage.
"""
import json, os, random, re, shutil, signal, sqlite3, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".build-mutants")
TREE = os.path.join(WORK, "tree")

# The suites whose corpus can see a module's behaviour (None: every suite).
MODULE_SUITES = {
    "ULC": ["ulc"], "XCallbackURL": ["xcallback", "ulc"], "XignQR": ["xignqr"], "AASA": ["aasa"],
    "AssetLinks": ["assetlinks"], "MitIDAppSwitch": ["mitid"], "LinkURL": None,
}

# A statement that reports something: `violations.append(...)`, `findings.append(...)`,
# `add(.code, ...)`; it is mutated into `if Bool("false") == true { ... }`.
EMIT = re.compile(r"^(\s*)((?:self\.)?[A-Za-z_][A-Za-z_0-9]*\.append\(|add\(\.)")
EMIT_HINT = re.compile(r"Diagnostic\(|Violation\(|Finding|violations|findings|diagnostics|problems|repairs|add\(\.|\.append\(\.")
GENERIC_WHERE = re.compile(r"^\s*where\s|\b(func|init|subscript|extension|struct|class|enum|protocol)\b.*\bwhere\s[^{]*$")
COND_OPS = [(" == ", " != "), (" != ", " == "), (" < ", " <= "), (" <= ", " < "), (" > ", " >= "),
            (" >= ", " > "), (" && ", " || "), (" || ", " && ")]


def fail(message, code=2):
    print(f"mutants.py: {message}", file=sys.stderr)
    sys.exit(code)


def code_part(line):
    """The line up to a // comment outside string literals, with string contents blanked.

    A string's interpolation `\\( ... )` is blanked too (its operators build a message), and it
    may hold string literals of its own (`"\\(x.map { "\\"\\($0)\\"" } ?? "none")"`): a stack
    of the open interpolations' parenthesis depths says when the enclosing string resumes."""
    out, in_str, i = [], False, 0
    interpolations = []   # per open interpolation, its parentheses still open
    while i < len(line):
        c = line[i]
        if in_str:
            if c == "\\" and line.startswith("(", i + 1):
                interpolations.append(0); in_str = False
                out.append("__"); i += 2; continue
            if c == "\\":
                out.append("__"); i += 2; continue
            if c == '"':
                in_str = False
                out.append("_" if interpolations else c); i += 1; continue
            out.append("_"); i += 1; continue
        if interpolations:   # code inside an interpolation: blanked
            if c == '"':
                in_str = True
            elif c == "(":
                interpolations[-1] += 1
            elif c == ")":
                if interpolations[-1] == 0:
                    interpolations.pop(); in_str = True
                else:
                    interpolations[-1] -= 1
            out.append("_"); i += 1; continue
        if c == '"':
            in_str = True; out.append(c); i += 1; continue
        if line.startswith("//", i):
            break
        out.append(c); i += 1
    return "".join(out)


def call_end(lines, li, col):
    """(line, column) just after the parenthesis that closes the call starting at lines[li][col]."""
    depth = 0
    for j in range(li, min(li + 40, len(lines))):
        s = code_part(lines[j])
        for k in range(col if j == li else 0, len(s)):
            c = s[k]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    return j, k + 1
            elif c == "{" and depth == 0:
                return None
    return None


def sites(path):
    """The mutation sites of one Swift file (line numbers from 0)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, in_block = [], False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("/*"):
            in_block = True
        if in_block:
            in_block = "*/" not in stripped
            continue
        if stripped.startswith("//") or stripped.startswith("#"):
            continue
        code = code_part(line)
        m = EMIT.match(code)
        if m and EMIT_HINT.search(line):
            end = call_end(lines, i, len(m.group(1)))
            if end and (end[0] > i or code[end[1]:].strip() == ""):
                found.append({"kind": "emit", "line": i, "end": end[0], "endcol": end[1], "col": -1, "from": "", "to": "", "text": stripped[:120]})
        for a, b in COND_OPS:
            k = code.find(a)
            while k >= 0:
                # `where C.Element == UInt8` of a declaration is a constraint, not a comparison.
                if not (a.strip() == "==" and GENERIC_WHERE.search(code[:k])):
                    found.append({"kind": "cond", "line": i, "col": k, "from": a, "to": b, "text": stripped[:120]})
                k = code.find(a, k + len(a))
        for a, b in (("return true", "return false"), ("return false", "return true")):
            k = code.find(a)
            if k >= 0 and not code[k + len(a):k + len(a) + 1].isalnum():
                found.append({"kind": "cond", "line": i, "col": k, "from": a, "to": b, "text": stripped[:120]})
    return found


def mutate(path, site):
    """Writes the mutant; returns the original text."""
    original = open(path, encoding="utf-8").read()
    lines = original.split("\n")
    if site["kind"] == "emit":
        i, e, ec = site["line"], site["end"], site["endcol"]
        indent = len(lines[i]) - len(lines[i].lstrip())
        lines[e] = lines[e][:ec] + " }" + lines[e][ec:]
        lines[i] = lines[i][:indent] + 'if Bool("false") == true { ' + lines[i][indent:]
    else:
        line, k = lines[site["line"]], site["col"]
        assert line[k:k + len(site["from"])] == site["from"], (path, site)
        lines[site["line"]] = line[:k] + site["to"] + line[k + len(site["from"]):]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return original


def module_files(module):
    base = os.path.join(TREE, "Sources", module)
    if not os.path.isdir(base):
        fail(f"no module {module} (Sources/{module} is not there)", 64)
    return sorted(os.path.join(r, f) for r, _, fs in os.walk(base) for f in fs if f.endswith(".swift"))


TMP = os.path.join(WORK, "tmp")


def env(**extra):
    """The environment of builds and runs: temporary files in TMP (emptied by clear_tmp)."""
    os.makedirs(TMP, exist_ok=True)
    return dict(os.environ, TMPDIR=TMP, **extra)


def clear_tmp():
    """Empties TMP between mutants, when nothing runs, but for SwiftPM's lock files."""
    if os.path.isdir(TMP):
        for name in os.listdir(TMP):
            if name.endswith(".lock"):
                continue
            path = os.path.join(TMP, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    os.remove(path)
                except OSError:
                    pass


def git(*args, cwd=ROOT):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)


def prepare_tree():
    """The private worktree at HEAD, clean."""
    os.makedirs(WORK, exist_ok=True)
    head = git("rev-parse", "HEAD")
    if head.returncode != 0:
        fail(f"not a git checkout: {head.stderr.strip()}")
    if not os.path.exists(os.path.join(TREE, ".git")):
        r = git("worktree", "add", "--detach", TREE, "HEAD")
        if r.returncode != 0:
            fail(f"cannot make the worktree {TREE}: {r.stderr.strip()}")
    for args in (("checkout", "--detach", "--force", head.stdout.strip()), ("reset", "--hard", "-q"), ("clean", "-fdq", "-e", ".build")):
        r = git(*args, cwd=TREE)
        if r.returncode != 0:
            fail(f"git {' '.join(args)} in {TREE}: {r.stderr.strip()}")
    if git("status", "--porcelain", "--untracked-files=no", "--", "Sources").stdout.strip():
        print("mutants.py: note: your uncommitted changes to the sources are not in the mutated tree (it is at HEAD)", file=sys.stderr)
    return head.stdout.strip()[:12]


def build(tests=False):
    command = ["swift", "build", "--build-tests"] if tests else ["swift", "build", "--product", "linkconform"]
    try:
        rc, stdout, stderr = run_in_session(command, 1800)
    except FileNotFoundError:
        fail("swift is not on PATH: the mutants are built with `swift build`")
    if rc is None:
        return False, "the build took over 30 minutes"
    return rc == 0, (stdout + stderr)[-2000:]


def run_corpus(suites, corpus):
    """Runs the corpus against the reference: (status, failing case ids, detail)."""
    db = os.path.join(WORK, "run.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    args = [os.path.join(TREE, ".build", "debug", "linkconform"), "run", "--strict", "--no-reports", "--no-progress",
            "--db", db, "--corpus", corpus]
    for s in suites or []:
        args += ["--suite", s]
    # No backtracer: it outlives a crashed run holding its output open, and a crash is only a
    # kill here.
    rc, stdout, stderr = run_in_session(args, 600, {"SWIFT_BACKTRACE": "enable=no"})
    if rc is None:
        return "killed-timeout", [], "the run took over 10 minutes"
    output = stderr or stdout
    failing = []
    try:
        con = sqlite3.connect(db)
        failing = [f"{c} ({o})" for c, o in con.execute(
            "SELECT caseId, outcome FROM caseResult WHERE outcome NOT IN ('pass', 'informational') ORDER BY caseId")]
        con.close()
    except sqlite3.Error:
        pass
    if rc == 0:
        return "survived", failing, ""
    if rc == 1:
        return "killed", failing, ""
    if rc == 130:
        # Not a signal (none was sent): in-process cases that did not return held every thread.
        return "killed-timeout", failing, output[-600:]
    return ("killed-crash" if rc < 0 else f"killed-exit-{rc}"), failing, output[-600:]


# Swift Testing's `✘ Test name() recorded an issue ...` / `... failed after ...`, XCTest's `Test Case 'A.b' failed`.
FAILED_TEST = re.compile(r"Test (\"[^\"]+\"|[^\s']+) (?:recorded an issue|failed)|Test Case '([^']+)' failed")


# How long a mutant's test run may take: five times the unmutated run, at least 2 minutes (the
# baseline sets it; 20 minutes until then). A mutant that makes a loop endless is a kill, and the
# first audit with --tests waited 8 minutes on one before it was stopped by hand.
TEST_TIMEOUT = [1200]


def stop_group(p):
    """Kills a child started with start_new_session and everything in its session, and reaps it.
    By session, not process group: `swift test` puts the test binary in a group of its own."""
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[3]) == p.pid:   # the session id (field 6 of stat)
                os.kill(int(entry), signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            pass
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return p.communicate()


def alive(pid):
    """Whether a process runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def run_in_session(args, timeout, extra_env=None, cwd=None):
    """Runs a command in a session of its own: (status, stdout, stderr), status None when it
    took over `timeout` seconds. Then everything it started is stopped too, not only the command
    (`swift build` leaves its compilers running, `swift test` its test binary)."""
    p = subprocess.Popen(args, cwd=cwd or TREE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env(**(extra_env or {})), start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stdout, stderr = stop_group(p)
        return None, stdout or "", stderr or ""
    except BaseException:
        stop_group(p)
        raise
    return p.returncode, stdout, stderr


def run_tests(test_filter):
    """Builds the tests and runs those FILTER selects: (status, failing tests, detail)."""
    ok, log = build(tests=True)
    if not ok:
        return "build-error", [], log[-400:]
    return run_built_tests(test_filter)


def run_built_tests(test_filter):
    """Runs the tests FILTER selects, already built: (status, failing tests, detail)."""
    limit = TEST_TIMEOUT[0]
    # In a session of its own: on a timeout the test binary that `swift test` started is stopped
    # too (killing `swift test` alone left it spinning; see stop_group).
    rc, stdout, stderr = run_in_session(["swift", "test", "--skip-build", "--filter", test_filter], limit,
                                        {"SWIFT_BACKTRACE": "enable=no"})
    if rc is None:
        return "killed-timeout", [], f"the tests took over {limit} seconds"
    output = stdout + stderr
    if rc == 0:
        if re.search(r"Test run with 0 tests|Executed 0 tests", output) and not re.search(r"Test run with [1-9]", output):
            fail(f"--tests {test_filter!r} selects no test")
        return "survived", [], ""
    failing = sorted({m.group(1) or m.group(2) for m in FAILED_TEST.finditer(output)})
    # A test binary that traps names no failed test: SwiftPM says it "exited with unexpected signal".
    status = "killed-by-tests-crash" if "unexpected signal" in output else "killed-by-tests"
    return status, failing, "" if failing else output[-600:]


def parse_options(args):
    opts = {"out": os.path.join(WORK, "mutants.jsonl"), "sample": None, "seed": 1, "kinds": {"emit", "cond"}, "corpus": None,
            "tests": None, "rest": []}
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--out", "--sample", "--seed", "--kinds", "--corpus", "--tests"):
            if i + 1 >= len(args):
                fail(f"{a} needs a value", 64)
            v = args[i + 1]
            if a == "--out": opts["out"] = os.path.abspath(v)
            elif a == "--sample" or a == "--seed":
                if not v.isdigit():
                    fail(f"{a} takes a whole number, not '{v}'", 64)
                opts[a[2:]] = int(v)
            elif a == "--kinds":
                opts["kinds"] = set(v.split(","))
                if not opts["kinds"] <= {"emit", "cond"}:
                    fail(f"--kinds takes emit, cond or emit,cond, not '{v}'", 64)
            elif a == "--tests":
                opts["tests"] = v
            else:
                opts["corpus"] = os.path.abspath(v)
            i += 2
        elif a.startswith("-"):
            fail(f"unknown option {a} (scripts/mutants.py --help)", 64)
        else:
            opts["rest"].append(a); i += 1
    return opts


def key(r):
    return (r["file"], r["line"], r["kind"], r["col"], r["to"])


def one(path, site, module, corpus, test_filter=None):
    """Builds and judges one mutant; always puts the file back."""
    t0 = time.time()
    original = mutate(path, site)
    try:
        ok, log = build()
        status, failing, detail = run_corpus(MODULE_SUITES.get(module), corpus) if ok else ("build-error", [], log[-400:])
        if status == "survived" and test_filter:
            status, failing, detail = run_tests(test_filter)
    finally:
        with open(path, "w", encoding="utf-8") as f:
            f.write(original)
        clear_tmp()
    return {"module": module, "file": os.path.relpath(path, TREE), "line": site["line"] + 1, "kind": site["kind"],
            "col": site["col"], "from": site["from"], "to": site["to"], "text": site["text"], "status": status,
            "failingCount": len(failing), "failing": failing[:10], "detail": detail, "seconds": round(time.time() - t0, 1)}


def baseline(corpus, revision, test_filter=None):
    print(f"mutants.py: building the tree at {revision} ({TREE}; the first build takes minutes)...", file=sys.stderr, flush=True)
    ok, log = build()
    if not ok:
        fail(f"the unmutated tree does not build:\n{log}")
    status, failing, detail = run_corpus(None, corpus)
    if status != "survived":
        fail(f"the unmutated reference does not pass the corpus ({status}: {', '.join(failing[:5])} {detail}); fix that first")
    if test_filter:
        print(f"mutants.py: building the tests and running those --tests {test_filter!r} selects...", file=sys.stderr, flush=True)
        ok, log = build(tests=True)
        if not ok:
            fail(f"the unmutated tree's tests do not build:\n{log}")
        t0 = time.time()
        status, failing, detail = run_built_tests(test_filter)
        if status != "survived":
            fail(f"the unmutated tree does not pass the tests --tests selects ({status}: {', '.join(failing[:5])} {detail}); fix that first")
        TEST_TIMEOUT[0] = max(120, int(5 * (time.time() - t0)))
        print(f"mutants.py: the tests took {time.time() - t0:.0f} s; a mutant's test run is stopped after {TEST_TIMEOUT[0]} s", file=sys.stderr, flush=True)
    clear_tmp()


def change(m):
    """What a mutant (a site, or a result) changes, in words."""
    return "never reported" if m["kind"] == "emit" else f"'{m['from'].strip()}' -> '{m['to'].strip()}'"


def label(r):
    return f"{r['file']}:{r['line']} {change(r)}"


def command_run(opts, recheck_of=None):
    revision = prepare_tree()
    corpus = opts["corpus"] or os.path.join(TREE, "Corpus")
    if recheck_of:
        rows = [json.loads(l) for l in open(recheck_of, encoding="utf-8") if l.strip()]
        todo = []
        for r in rows:
            if r["status"] != "survived":
                continue
            path = os.path.join(TREE, r["file"])
            site = next((s for s in (sites(path) if os.path.exists(path) else []) if s["line"] + 1 == r["line"] and s["kind"] == r["kind"]
                         and s["col"] == r["col"] and s["to"] == r["to"]), None)
            if site is None:
                print(f"mutants.py: {label(r)}: the site is no longer there (the code changed)", file=sys.stderr)
                continue
            todo.append((r["module"], path, site))
    else:
        modules = opts["rest"] or list(MODULE_SUITES)
        rng = random.Random(opts["seed"])
        todo = []
        for module in modules:
            found = [(p, s) for p in module_files(module) for s in sites(p) if s["kind"] in opts["kinds"]]
            emits = [x for x in found if x[1]["kind"] == "emit"]
            conds = [x for x in found if x[1]["kind"] == "cond"]
            if opts["sample"] is not None and len(conds) > opts["sample"]:
                conds = rng.sample(conds, opts["sample"])
            todo += [(module, p, s) for p, s in emits + conds]
    done = set()
    if os.path.exists(opts["out"]) and not recheck_of:
        done = {key(json.loads(l)) for l in open(opts["out"], encoding="utf-8") if l.strip()}
    todo = [t for t in todo if (os.path.relpath(t[1], TREE), t[2]["line"] + 1, t[2]["kind"], t[2]["col"], t[2]["to"]) not in done]
    if not todo:
        print("mutants.py: nothing to run (every mutant is already in " + opts["out"] + ")", file=sys.stderr)
        return
    baseline(corpus, revision, opts["tests"])
    # A signal lets the current mutant's file be put back before the exit.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    start, counts = time.time(), {}
    try:
        with open(opts["out"], "a", encoding="utf-8") as out:
            for n, (module, path, site) in enumerate(todo, 1):
                r = one(path, site, module, corpus, opts["tests"])
                r["revision"] = revision
                out.write(json.dumps(r) + "\n"); out.flush()
                counts[r["status"]] = counts.get(r["status"], 0) + 1
                left = (time.time() - start) / n * (len(todo) - n)
                print(f"[{n}/{len(todo)}, about {int(left // 60)} min left] {r['status']:<14} {label(r)}"
                      + (f"  ({r['failingCount']} {'tests' if r['status'].startswith('killed-by-tests') else 'cases'} fail)" if r["failingCount"] else ""),
                      file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("mutants.py: interrupted; what ran is in " + opts["out"] + " (run again to go on)", file=sys.stderr)
        sys.exit(130)
    print("mutants.py: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) + f"; results in {opts['out']}"
          + f" (scripts/mutants.py report {os.path.relpath(opts['out'])})", file=sys.stderr)


def command_report(path):
    rows = {}
    for line in open(path, encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            rows[key(r)] = r   # a recheck's later line replaces the earlier one
    by_module = {}
    for r in rows.values():
        by_module.setdefault(r["module"], []).append(r)
    print(f"# Mutation audit ({len(rows)} mutants)\n")
    print("| module | mutants | killed | survived | did not build |\n|---|---|---|---|---|")
    for module, rs in sorted(by_module.items()):
        killed = sum(r["status"].startswith("killed") for r in rs)
        survived = sum(r["status"] == "survived" for r in rs)
        print(f"| {module} | {len(rs)} | {killed} | {survived} | {sum(r['status'] == 'build-error' for r in rs)} |")
    print("\nA survivor is a change to the reference that no case noticed: an equivalent change (a message,")
    print("a fast path, a limit) or a missing case. Each needs a look.\n")
    for module, rs in sorted(by_module.items()):
        survivors = sorted((r for r in rs if r["status"] == "survived"), key=lambda r: (r["file"], r["line"]))
        if survivors:
            print(f"## {module}: {len(survivors)} survivors\n")
            for r in survivors:
                print(f"- `{label(r)}`: `{r['text']}`")
            print()


SELFTEST_SOURCE = """struct S {
    var violations: [String] = []
    func f<C: Collection>(_ c: C) -> Bool where C.Element == UInt8 {
        let s = "a == b && c"
        // x == y in a comment
        if c.count == 2 && s.isEmpty { return true }
        return false
    }
    func h<C: Collection>(_ c: C)
        where C.Index == Int {
    }
    mutating func g(_ n: Int) {
        violations.append(String(
            describing: n))
        for k in 0..<n where k != 3 { _ = k }
        violations.append("\\(n) (and \\(n == 1 ? "" : "s"))")
        violations.append("is \\(n > 0 ? "\\"\\(n)\\"" : "none"); must be \\"x\\"" + (n < 2 ? "" : "!"))
    }
}
"""

# Swift Testing's and XCTest's lines for failures, and a run's summary line, which names no test.
SELFTEST_TEST_OUTPUT = """\u2718 Test theProgramAgrees() recorded an issue at A.swift:3:4: Expectation failed: (result.kind -> .noMatch) == (c.expected -> .match)
\u2718 Test programAgreesWithRuleByRule(budget:) failed after 3.1 seconds with 2 issues.
\u2718 Test "a display name" failed after 1.0 seconds with 1 issue.
Test Case 'AASATests.testOld' failed (0.1 seconds)
\u2718 Test run with 30 tests in 2 suites failed after 12.0 seconds with 5 issues.
\u2714 Test theCorpusHasItsMatchCases() passed after 0.4 seconds.
"""
SELFTEST_FAILED_TESTS = ['"a display name"', "AASATests.testOld", "programAgreesWithRuleByRule(budget:)", "theProgramAgrees()"]

SELFTEST_SITES = [(5, "cond", " == "), (5, "cond", " && "), (5, "cond", "return true"), (6, "cond", "return false"),
                  (12, "emit", ""), (14, "cond", " != "), (15, "emit", ""), (16, "emit", ""), (16, "cond", " < ")]
# (Operators inside a string's interpolation are not sites: they build messages.)


def command_selftest():
    """Checks the site finder and every mutant it makes on a known snippet: the sites found are
    the expected ones, each mutant still parses (swiftc -parse), and the file is put back."""
    import tempfile
    problems = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "Snippet.swift")
        with open(path, "w", encoding="utf-8") as f:
            f.write(SELFTEST_SOURCE)
        found = sites(path)
        got = [(s["line"], s["kind"], s["from"]) for s in found]
        if got != SELFTEST_SITES:
            problems.append(f"sites: expected {SELFTEST_SITES}, found {got}")
        for s in found:
            original = mutate(path, s)
            mutated = open(path, encoding="utf-8").read()
            try:
                r = subprocess.run(["swiftc", "-parse", path], capture_output=True, text=True)
            except FileNotFoundError:
                fail("swiftc is not on PATH: the selftest parses each mutant with it")
            if r.returncode != 0:
                problems.append(f"the mutant at line {s['line'] + 1} ({s['kind']} {s['from'].strip()}) does not parse: {r.stderr.strip()[:300]}")
            if mutated == original:
                problems.append(f"the mutant at line {s['line'] + 1} changed nothing")
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
        if open(path, encoding="utf-8").read() != SELFTEST_SOURCE:
            problems.append("the file was not put back as it was")
    # A command past its time limit is stopped with what it started (builds, test binaries).
    with tempfile.TemporaryDirectory() as d:
        started = time.monotonic()
        rc, out, _ = run_in_session(["sh", "-c", "sleep 60 & echo $!; wait"], 1, cwd=d)
        took = time.monotonic() - started
        child = int(out.split()[0]) if out.split() and out.split()[0].isdigit() else None
        # SIGKILL is sent, not waited for: give the kernel a moment to end the process.
        for _ in range(100):
            if child is None or not alive(child):
                break
            time.sleep(0.02)
        if rc is not None:
            problems.append(f"a command past its time limit was not stopped (status {rc})")
        elif took > 15:
            problems.append(f"stopping a command at its 1 s limit took {took:.0f} s: it waited for what the command started")
        elif child is None or alive(child):
            problems.append(f"a command stopped at its time limit left what it started running (pid {child})")
    # The names of failed tests, read from both libraries' output (--tests).
    names = sorted({m.group(1) or m.group(2) for m in FAILED_TEST.finditer(SELFTEST_TEST_OUTPUT)})
    if names != SELFTEST_FAILED_TESTS:
        problems.append(f"failed tests: expected {SELFTEST_FAILED_TESTS}, read {names}")
    for p in problems:
        print("selftest: " + p, file=sys.stderr)
    print(f"selftest: {len(found)} sites, {len(problems)} problems")
    sys.exit(1 if problems else 0)


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        sys.exit(0 if args else 64)
    command, rest = args[0], args[1:]
    if command == "list":
        prepare_tree()
        for module in rest or list(MODULE_SUITES):
            for path in module_files(module):
                for s in sites(path):
                    print(f"{module}\t{os.path.relpath(path, TREE)}:{s['line'] + 1}\t{change(s)}\t{s['text']}")
    elif command == "run":
        command_run(parse_options(rest))
    elif command == "recheck":
        opts = parse_options(rest)
        if len(opts["rest"]) != 1 or not os.path.exists(opts["rest"][0]):
            fail("recheck takes one results file that exists (scripts/mutants.py recheck IN.jsonl --out OUT.jsonl)", 64)
        command_run(opts, recheck_of=opts["rest"][0])
    elif command == "selftest":
        command_selftest()
    elif command == "report":
        if len(rest) != 1 or not os.path.exists(rest[0]):
            fail("report takes one results file that exists", 64)
        command_report(rest[0])
    else:
        fail(f"unknown command '{command}' (list, run, recheck, report, selftest; --help)", 64)


if __name__ == "__main__":
    main()
