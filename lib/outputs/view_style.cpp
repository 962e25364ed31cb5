#include "outputs/view_style.h"

#include "outputs/html_text.h"

namespace weft {
namespace {

const char* page_style = R"css(
:root { color-scheme: light dark; --fg: #1d1f24; --bg: #f6f6f4; --muted: #6b6f78; --bad: #c62828; --good: #2e7d32;
        --warn: #b26a00; --line: #8884; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e6e3; --bg: #17181b; --muted: #9aa0aa; --bad: #ef6c6c; --good: #7cc47f; --warn: #f0b35a; } }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 10px 16px; border-bottom: 1px solid var(--line); }
h1 { font-size: 18px; margin: 0; } .muted { color: var(--muted); }
.bad { color: var(--bad); } .good { color: var(--good); } .warn { color: var(--warn); }
table { border-collapse: collapse; } td, th { padding: 4px 8px; text-align: left; border-bottom: 1px solid #8883; vertical-align: top; }
th { position: sticky; top: 0; background: var(--bg); cursor: pointer; user-select: none; white-space: nowrap; }
th[aria-sort=ascending]::after { content: " \25B2"; } th[aria-sort=descending]::after { content: " \25BC"; }
td.path { min-width: 12em; max-width: 30em; overflow-wrap: anywhere; }
td.why { min-width: 10em; max-width: 26em; overflow-wrap: anywhere; }
td.codes { min-width: 11em; max-width: 30em; overflow-wrap: anywhere; }
td.gate { min-width: 13em; max-width: 22em; overflow-wrap: break-word; }
td.num, td.time { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
img.thumb { width: 96px; height: 96px; border-radius: 4px; background: #8881; display: block; }
.files a { margin-right: 6px; white-space: nowrap; }
.totals span { margin-right: 14px; } .filters label { margin-right: 14px; }
)css";

}  // namespace

std::string page_head(const std::string& title, const char* script_hash) {
    std::string head = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    head += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src '" + std::string(script_hash) +
            "'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'\">\n";
    head += "<title>" + html_text(title) + "</title>\n<meta name=\"viewport\" content=\"width=device-width\">\n";
    head += "<style>" + std::string(page_style) + "</style>\n</head>\n<body>\n";
    return head;
}

}  // namespace weft
