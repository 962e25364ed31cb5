// Values that reach a page written as inert data (docs/view.md#what-a-page-trusts): each escaped
// for the context it lands in, so a model, material, node or file name can never become markup,
// a script or a link to anywhere but the file it names.
#pragma once
#include <string>
#include <string_view>

namespace weft {

/// HTML text or a quoted attribute value: & < > " ' as character references.
std::string html_text(std::string_view text);

/// A relative link to a file under the page's folder: "./" then each byte outside
/// [A-Za-z0-9-._~/] percent-encoded, so no name can be read as a scheme ("javascript:"), a query
/// or a fragment. Returns "" for an absolute path or one with a ".." segment (it would lead out of
/// the folder): no link is written then.
std::string relative_href(std::string_view path);

/// JSON text made safe inside <script type="application/json">: < > & as \u003c \u003e \u0026,
/// U+2028 and U+2029 as \u2028 \u2029 (the same JSON: they can only stand inside strings).
std::string script_json(std::string_view json_text);

}  // namespace weft
