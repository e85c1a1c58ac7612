/// Pieces of the self-contained HTML pages `--format html` writes: escaping, the page around a
/// body, its inline style sheet.
///
/// A page loads nothing: no scripts, no fonts, no images, and its Content-Security-Policy says
/// so (`default-src 'none'`), so it opens the same from a CI artefact, an e-mail or a laptop
/// without network. Every text from a source goes through `escape`, so a product name holding
/// `<script>` stays text.
enum HTMLPage {
    /// Text for an element or an attribute value: `&`, `<`, `>`, `"` and `'` as entities,
    /// control characters shown as `\u{1B}` (line breaks and tabs kept).
    static func escape(_ text: String) -> String {
        MarkupText.escape(text, apostrophe: "&#39;")
    }

    /// A product ID as code, with its name for people beside it when there is one.
    static func product(_ id: String, name: String?) -> String {
        var html = "<code class=\"id\">\(escape(id))</code>"
        if let name, !name.isEmpty, name != id { html += " <span class=\"name\">\(escape(name))</span>" }
        return html
    }

    /// The document's start, up to and including `<main>`.
    static func head(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="generator" content="Tally \(escape(TallyInfo.version))">
        <title>\(escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        <main>
        """
    }

    /// The document's end.
    static let tail = """
        <footer>Written by Tally \(TallyInfo.version). This page loads nothing from the network.</footer>
        </main>
        </body>
        </html>
        """

    /// Readable at 1280 px and on a phone: the page never scrolls sideways; a wide table
    /// scrolls inside its own box.
    static let style = """
        :root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa; --line: #d1d9e0;
          --red: #cf222e; --red-bg: #ffebe9; --green: #1a7f37; --green-bg: #dafbe1; --amber: #9a6700; --amber-bg: #fff8c5;
          --blue: #0969da; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --line: #3d444d;
            --red: #ff7b72; --red-bg: #3c1618; --green: #56d364; --green-bg: #12261e; --amber: #e3b341; --amber-bg: #2e2111;
            --blue: #4493f8; }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI",
          Roboto, "Helvetica Neue", Arial, sans-serif; overflow-wrap: anywhere; }
        main { max-width: 1200px; margin: 0 auto; padding: 16px; }
        h1 { font-size: 1.5rem; margin: 0 0 4px; }
        h2 { font-size: 1.25rem; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
        h3 { font-size: 1.05rem; margin: 24px 0 8px; }
        code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }
        .id { font-weight: 600; }
        .name { color: var(--muted); }
        .muted, .where { color: var(--muted); }
        .where { font-size: 0.82em; display: block; }
        .verdict { font-size: 1.05rem; margin: 8px 0 16px; padding: 10px 12px; border-radius: 6px; border: 1px solid var(--line); }
        .verdict.fail { background: var(--red-bg); border-color: var(--red); }
        .verdict.pass { background: var(--green-bg); border-color: var(--green); }
        .verdict.warn { background: var(--amber-bg); border-color: var(--amber); }
        .counts { display: grid; grid-template-columns: repeat(auto-fill, minmax(118px, 1fr)); gap: 8px; margin: 12px 0; padding: 0; }
        .counts div { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; }
        .counts dt { color: var(--muted); font-size: 0.85em; }
        .counts dd { margin: 0; font-size: 1.5rem; font-weight: 600; }
        .counts .hot { border-color: var(--red); }
        .attention { background: var(--amber-bg); border: 1px solid var(--amber); border-radius: 6px; padding: 8px 12px; margin: 12px 0; }
        .attention h3 { margin: 4px 0 8px; }
        .attention ul { margin: 0; padding-left: 20px; }
        .scroll { overflow-x: auto; max-width: 100%; -webkit-overflow-scrolling: touch; border: 1px solid var(--line); border-radius: 6px; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid var(--line); }
        th { background: var(--panel); font-weight: 600; white-space: nowrap; }
        tr:last-child td { border-bottom: 0; }
        th, td { overflow-wrap: normal; }
        td .pid { overflow-wrap: anywhere; }
        td.num, th.num { text-align: right; white-space: nowrap; }
        td.value { white-space: nowrap; }
        .old { background: var(--red-bg); }
        .new { background: var(--green-bg); }
        .up { color: var(--red); font-weight: 600; }
        .down { color: var(--green); font-weight: 600; }
        .badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 0.8em; font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
        .badge.added { color: var(--green); }
        .badge.removed, .badge.error { color: var(--red); }
        .badge.changed, .badge.warning { color: var(--amber); }
        .badge.moved, .badge.note { color: var(--blue); }
        .why { color: var(--red); font-size: 0.88em; display: block; }
        details { margin: 8px 0; }
        summary { cursor: pointer; }
        .sides { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; margin: 6px 0; }
        .side { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; min-width: 0; }
        .side .role { color: var(--muted); font-size: 0.85em; display: block; }
        .finding { border-left: 4px solid var(--line); padding: 4px 0 4px 12px; margin: 10px 0; }
        .finding.error { border-left-color: var(--red); }
        .finding.warning { border-left-color: var(--amber); }
        .finding.note { border-left-color: var(--blue); }
        .finding p { margin: 2px 0; color: var(--fg); }
        .hint { color: var(--muted); }
        footer { margin: 40px 0 8px; color: var(--muted); font-size: 0.8em; }
        @media (max-width: 600px) {
          main { padding: 10px; }
          .sides { grid-template-columns: 1fr; }
          th, td { padding: 5px 6px; }
          .counts { grid-template-columns: repeat(3, 1fr); gap: 6px; }
          .counts div { padding: 4px 6px; }
          .counts dd { font-size: 1.2rem; }
        }
        """
}
