/// The style sheet of `index.html`, inlined in the page: system fonts only, colours as custom
/// properties with a dark set under `prefers-color-scheme: dark`, a sticky table of contents and
/// matrix header. It holds no `<` or `&`, so the page stays well-formed XML.
enum HTMLStyle {
    static let sheet = """
        :root {
          --bg: #f6f7f9; --panel: #ffffff; --fg: #1c2230; --muted: #5d6779; --line: #e1e5ec; --soft: #f0f2f6;
          --accent: #2f5bd3; --mark: #ffe08a; --mark-fg: #1c2230;
          --pass: #1e8e4e; --pass-bg: #dff3e6; --fail: #c93535; --fail-bg: #fbe3e3; --should: #b86e00; --should-bg: #fdf0d5;
          --info: #3f6fbf; --info-bg: #e4ecfa; --skip: #7d8697; --skip-bg: #eceef2; --broke: #8a3fb0; --broke-bg: #f2e6f8;
          --xfail: #9a5b5b; --xfail-bg: #f3eaea; --xpass: #0d8386; --xpass-bg: #ddf3f3;
          --s0: #2f6fdc; --s1: #e0762f; --s2: #1f9d8a; --s3: #c8467a; --s4: #7656c9; --s5: #7f9a1e; --s6: #c99a06; --s7: #58697d;
          color-scheme: light dark;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #12151b; --panel: #1a1e26; --fg: #e3e7ee; --muted: #9aa3b2; --line: #2c323d; --soft: #222733;
            --accent: #7ea2ff; --mark: #7a5d00; --mark-fg: #fff4cc;
            --pass: #53c584; --pass-bg: #173524; --fail: #ff7b7b; --fail-bg: #3d1c1f; --should: #f0b04a; --should-bg: #3a2c12;
            --info: #86a9ee; --info-bg: #1c2a44; --skip: #9aa3b2; --skip-bg: #262b35; --broke: #cf8cf0; --broke-bg: #33203f;
            --xfail: #d6a0a0; --xfail-bg: #36292b; --xpass: #5fd0d2; --xpass-bg: #173536;
            --s0: #6f9bff; --s1: #ff9a57; --s2: #43c9b3; --s3: #f07aa6; --s4: #a98bff; --s5: #b4d046; --s6: #f2c744; --s7: #93a4b8;
          }
        }
        * { box-sizing: border-box; }
        html { scroll-padding-top: 4rem; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        code, pre, .rid, .cid { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.86em; }
        a { color: var(--accent); }
        .wrap { max-width: 1480px; margin: 0 auto; padding: 0 28px; }
        main { max-width: 1480px; margin: 0 auto; padding: 8px 28px 40px; }
        h2 { font-size: 1.35rem; margin: 2.2rem 0 0.4rem; letter-spacing: -0.01em; }
        h3 { font-size: 1.1rem; margin: 0 0 0.5rem; }
        h4 { font-size: 0.78rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); margin: 1rem 0 0.3rem; }
        .lede { color: var(--muted); max-width: 980px; margin: 0 0 1rem; }
        .dim { color: var(--muted); }
        small { color: var(--muted); font-weight: normal; }

        .masthead { background: var(--panel); border-bottom: 1px solid var(--line); padding: 22px 0 18px; }
        .eyebrow { margin: 0; color: var(--muted); font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.08em; }
        h1 { margin: 0.15rem 0 0.2rem; font-size: 1.9rem; letter-spacing: -0.02em; }
        .headline { margin: 0 0 0.9rem; color: var(--muted); }
        .incomplete { margin: 0 0 0.9rem; padding: 8px 12px; border-left: 4px solid var(--should); background: var(--should-bg); }
        .facts { display: flex; flex-wrap: wrap; gap: 10px 40px; margin: 0; }
        .facts dt { font-size: 0.75rem; color: var(--muted); text-transform: uppercase; letter-spacing: 0.05em; }
        .facts dd { margin: 0; overflow-wrap: anywhere; }
        .status { display: inline-block; vertical-align: middle; font-size: 0.8rem; font-weight: 600; padding: 1px 9px; border-radius: 999px; }
        .st-completed { background: var(--pass-bg); color: var(--pass); }
        .st-interrupted, .st-running { background: var(--should-bg); color: var(--should); }
        .st-failed { background: var(--fail-bg); color: var(--fail); }

        nav.toc { position: sticky; top: 0; z-index: 20; height: 44px; background: var(--panel); border-bottom: 1px solid var(--line); }
        nav.toc .wrap { display: flex; gap: 22px; align-items: center; height: 44px; overflow-x: auto; }
        nav.toc a { color: var(--fg); text-decoration: none; font-weight: 500; white-space: nowrap; }
        nav.toc a:hover { color: var(--accent); }

        table { border-collapse: separate; border-spacing: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
        th, td { padding: 6px 10px; text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); }
        thead th { font-size: 0.78rem; font-weight: 600; color: var(--muted); background: var(--soft); white-space: nowrap; }
        tbody tr:last-child > * { border-bottom: none; }
        .num { text-align: right; font-variant-numeric: tabular-nums; }
        td.zero { color: var(--line); }

        .o { display: inline-block; font-size: 0.78rem; font-weight: 600; padding: 0 7px; border-radius: 4px; white-space: nowrap; }
        .o-pass { background: var(--pass-bg); color: var(--pass); }
        .o-fail { background: var(--fail-bg); color: var(--fail); }
        .o-nonStrict { background: var(--should-bg); color: var(--should); }
        .o-informational { background: var(--info-bg); color: var(--info); }
        .o-skipped, .o-notRun { background: var(--skip-bg); color: var(--skip); }
        .o-errored, .o-crashed, .o-timedOut, .o-protocolError { background: var(--broke-bg); color: var(--broke); }
        .o-expectedFail { background: repeating-linear-gradient(135deg, var(--xfail-bg) 0 4px, var(--panel) 4px 8px); color: var(--xfail); }
        .o-unexpectedPass { background: var(--xpass-bg); color: var(--xpass); }
        .legend { list-style: none; padding: 0; margin: 0 0 12px; display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 0.85rem; color: var(--muted); }

        .scroll { overflow-x: auto; }
        table.summary { width: 100%; }
        table.summary th, table.summary td { padding: 6px 7px; }
        table.summary tbody { border-top: 2px solid var(--line); }
        table.summary tbody + tbody tr:first-child > * { border-top: 2px solid var(--line); }
        th.impl { min-width: 150px; font-weight: 600; }
        th.impl .name, .card h3 .name { white-space: nowrap; }
        th.impl small, h3 small, .card small { display: block; }
        td.rate { white-space: nowrap; }
        td.rate .bar { display: inline-flex; width: 64px; vertical-align: middle; margin: 0 8px 0 0; }
        td.rate .dim { font-size: 0.82rem; }
        td.rate .pct { display: inline-block; min-width: 3.6em; text-align: right; margin-right: 6px; }
        tr.skipped-whole td { color: var(--muted); font-size: 0.88rem; }
        .pct { font-weight: 600; font-variant-numeric: tabular-nums; }
        .bar { display: flex; height: 8px; border-radius: 4px; overflow: hidden; background: var(--soft); }
        .seg { display: block; height: 100%; }
        .seg.o-pass { background: var(--pass); } .seg.o-fail { background: var(--fail); } .seg.o-nonStrict { background: var(--should); }
        .seg.o-informational { background: var(--info); } .seg.o-skipped, .seg.o-notRun { background: var(--skip); opacity: 0.45; }
        .seg.o-errored, .seg.o-crashed, .seg.o-timedOut, .seg.o-protocolError { background: var(--broke); }
        .seg.o-expectedFail { background: var(--xfail); } .seg.o-unexpectedPass { background: var(--xpass); }
        .worse { color: var(--fail); font-weight: 600; white-space: nowrap; }
        .better { color: var(--pass); font-weight: 600; white-space: nowrap; }
        td.moves { white-space: nowrap; }

        .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 3px; margin-right: 7px; vertical-align: baseline; }
        .s0 { --c: var(--s0); } .s1 { --c: var(--s1); } .s2 { --c: var(--s2); } .s3 { --c: var(--s3); }
        .s4 { --c: var(--s4); } .s5 { --c: var(--s5); } .s6 { --c: var(--s6); } .s7 { --c: var(--s7); }
        .swatch { background: var(--c); }
        .series { list-style: none; padding: 0; margin: 0 0 10px; display: flex; flex-wrap: wrap; gap: 4px 20px; font-size: 0.9rem; }
        .series svg.key { width: 12px; height: 12px; margin-right: 6px; vertical-align: -1px; }
        .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 16px; }
        figure { margin: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px 4px; }
        figcaption { font-weight: 600; }
        svg.trend { width: 100%; height: auto; display: block; }
        svg .grid { stroke: var(--line); stroke-width: 1; }
        svg .axis { fill: var(--muted); font-size: 11px; font-family: system-ui, sans-serif; }
        svg .axis.partial { font-style: italic; }
        svg .line { fill: none; stroke: var(--c); stroke-width: 2.2; stroke-linejoin: round; }
        svg .dot { fill: var(--c); stroke: var(--panel); stroke-width: 1.5; }
        svg .regression { fill: var(--fail); }
        svg .fix { fill: var(--pass); }
        svg .mark { font-size: 10px; font-weight: 700; font-family: system-ui, sans-serif; }
        svg text.regression { fill: var(--fail); } svg text.fix { fill: var(--pass); }

        table.matrix { font-size: 0.88rem; }
        table.matrix thead th { position: sticky; top: 44px; z-index: 10; border-bottom: 1px solid var(--line); box-shadow: 0 1px 0 var(--line); }
        table.matrix th.implcol { min-width: 96px; text-align: center; white-space: normal; }
        table.matrix th.implcol small { display: block; font-weight: normal; }
        tr.suiterow th { background: var(--soft); font-size: 0.95rem; padding-top: 10px; }
        th.rid { white-space: nowrap; font-weight: 600; }
        td.rtitle { max-width: 460px; min-width: 200px; }
        .lv { display: inline-block; font-size: 0.7rem; font-weight: 700; letter-spacing: 0.04em; padding: 0 6px; border-radius: 3px; border: 1px solid var(--line); }
        .lv-must { color: var(--fail); border-color: var(--fail); }
        .lv-should { color: var(--should); border-color: var(--should); }
        .lv-may, .lv-info { color: var(--info); border-color: var(--info); }
        .decided { display: block; font-size: 0.7rem; color: var(--muted); }
        td.null.all { color: var(--should); font-weight: 700; }
        td.cell { text-align: center; font-variant-numeric: tabular-nums; border-left: 1px solid var(--line); font-weight: 600; }
        td.cell small { display: block; font-size: 0.72rem; font-weight: 500; white-space: nowrap; }
        td.cell a { color: inherit; }
        .w-pass { background: var(--pass-bg); color: var(--pass); }
        .w-fail { background: var(--fail-bg); color: var(--fail); }
        .w-nonStrict { background: var(--should-bg); color: var(--should); }
        .w-informational { background: var(--info-bg); color: var(--info); }
        .w-skipped, .w-notRun { background: var(--soft); color: var(--skip); font-weight: 400; }
        .w-errored, .w-crashed, .w-timedOut, .w-protocolError { background: var(--broke-bg); color: var(--broke); }
        .w-expectedFail { background: repeating-linear-gradient(135deg, var(--xfail-bg) 0 5px, var(--panel) 5px 10px); color: var(--xfail); }
        .w-unexpectedPass { background: var(--xpass-bg); color: var(--xpass); }

        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 14px; }
        .card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; }
        .card dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; font-size: 0.9rem; }
        .card dt { color: var(--muted); }
        .card dd { margin: 0; overflow-wrap: anywhere; }
        details.notes { margin-top: 10px; font-size: 0.85rem; }
        details.notes summary { cursor: pointer; color: var(--muted); }
        pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
        pre.note { background: var(--soft); border-radius: 6px; padding: 6px 8px; margin-top: 6px; max-height: 16em; overflow: auto; }

        .impl-problems { margin-top: 1.6rem; }
        .impl-problems h3 .count { font-size: 0.85rem; color: var(--muted); font-weight: 500; margin-left: 8px; }
        .impl-problems h3 small { display: inline; margin-left: 6px; }
        .chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 0 0 6px; }
        details.case { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; margin: 4px 0; }
        details.case > summary { cursor: pointer; padding: 6px 10px; display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; }
        details.case > summary:hover { background: var(--soft); }
        details.case[open] > summary { border-bottom: 1px solid var(--line); }
        .cid { font-weight: 600; overflow-wrap: anywhere; }
        .req { font-size: 0.82rem; color: var(--muted); white-space: nowrap; }
        .msg { color: var(--muted); font-size: 0.86rem; flex-basis: 100%; padding-left: 2px; overflow-wrap: anywhere; }
        details.case[open] > summary .msg { display: none; }
        .case-body { padding: 4px 14px 14px; }
        .ctitle { margin: 6px 0 0; font-weight: 600; }
        .rtext { margin: 0 0 0.3rem; max-width: 980px; } .rtext .where { color: var(--muted); font-size: 0.85rem; margin-left: 6px; font-family: inherit; }
        .where { font-weight: normal; font-size: 0.82rem; color: var(--muted); margin-left: 8px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        pre.message, pre.json { background: var(--soft); border-radius: 6px; padding: 8px 10px; max-height: 22em; overflow: auto; }
        table.diff { width: 100%; font-size: 0.86rem; }
        table.diff td, table.diff th { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
        table.diff thead th { font-family: inherit; }
        table.diff td { width: 40%; }
        table.diff tbody th { white-space: nowrap; }
        table.diff td.dstatus { width: auto; white-space: nowrap; font-family: system-ui, sans-serif; font-size: 0.78rem; }
        tr.d-differs > *, tr.d-missing > * { background: var(--fail-bg); }
        tr.d-differs td.dstatus, tr.d-missing td.dstatus { color: var(--fail); font-weight: 700; }
        tr.d-reordered td.dstatus { color: var(--should); font-weight: 600; }
        tr.d-same td.dstatus { color: var(--pass); }
        tr.d-unchecked > * { color: var(--muted); }
        mark { background: var(--mark); color: var(--mark-fg); border-radius: 2px; padding: 0 1px; }
        .more { margin-top: 10px; font-weight: 500; }
        .none { color: var(--pass); font-weight: 600; }
        footer { border-top: 1px solid var(--line); color: var(--muted); font-size: 0.85rem; padding: 18px 0 30px; }
        @media (max-width: 760px) { .wrap, main { padding-left: 14px; padding-right: 14px; } .charts { grid-template-columns: 1fr; } }
        @media print { nav.toc { display: none; } details.case { break-inside: avoid; } }

        """
}
