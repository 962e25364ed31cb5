// What both pages open with (view_page.h): the head, its Content-Security-Policy and its style.
#pragma once
#include <string>

namespace weft {

/// "<!doctype html>..." through "<body>\n": the title (escaped), and a CSP under which nothing
/// leaves the page and no script runs but the one whose hash is `script_hash` ("sha256-<base64>"):
/// default-src 'none'; script-src that hash; style-src 'unsafe-inline' (styles, never script);
/// img-src 'self' data: (the index's thumbnails beside it); base-uri and form-action 'none'.
std::string page_head(const std::string& title, const char* script_hash);

}  // namespace weft
