#include "garment/classes.h"
#include "io/utf8_text.h"

namespace weft {

namespace {

enum class CharKind { separator, lower, upper, digit, other };

CharKind kind_of(unsigned char c) {
    if (c >= 'a' && c <= 'z') return CharKind::lower;
    if (c >= 'A' && c <= 'Z') return CharKind::upper;
    if (c >= '0' && c <= '9') return CharKind::digit;
    if (c >= 0x80) return CharKind::other;  // a UTF-8 byte: part of a word, never split inside
    return CharKind::separator;
}

bool is_letter(CharKind k) { return k == CharKind::lower || k == CharKind::upper; }

char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool has_non_ascii(std::string_view s) {
    for (unsigned char c : s)
        if (c >= 0x80) return true;
    return false;
}

/// A pattern's words: like split_words but case-blind and keeping a trailing `*`.
std::vector<std::string> pattern_words(std::string_view pattern) {
    std::vector<std::string> words;
    std::string word;
    for (char c : pattern) {
        CharKind k = kind_of(static_cast<unsigned char>(c));
        if (k == CharKind::separator && c != '*') {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else {
            word.push_back(to_lower(c));
        }
    }
    if (!word.empty()) words.push_back(std::move(word));
    return words;
}

bool word_matches(std::string_view pattern_word, std::string_view word) {
    if (!pattern_word.empty() && pattern_word.back() == '*') {
        std::string_view stem = pattern_word.substr(0, pattern_word.size() - 1);
        return word.size() >= stem.size() && word.substr(0, stem.size()) == stem;
    }
    if (word == pattern_word) return true;
    // Plurals: "tails", "sleeves", "sashes".
    if (word.size() == pattern_word.size() + 1 && word.back() == 's')
        return word.substr(0, pattern_word.size()) == pattern_word;
    if (word.size() == pattern_word.size() + 2 && word.substr(word.size() - 2) == "es")
        return word.substr(0, pattern_word.size()) == pattern_word;
    return false;
}

int match_words(const std::vector<std::string>& pattern, const std::vector<std::string>& words) {
    if (pattern.empty() || pattern.size() > words.size()) return 0;
    for (size_t start = 0; start + pattern.size() <= words.size(); ++start) {
        bool all = true;
        for (size_t i = 0; i < pattern.size() && all; ++i) all = word_matches(pattern[i], words[start + i]);
        if (all) return static_cast<int>(pattern.size());
    }
    return 0;
}

}  // namespace

std::vector<GarmentClass> default_garment_classes() {
    // Words artists and exporters use for the slot or the bones; the CJK entries are the names
    // Japanese VRM models commonly carry (髪 hair, スカート skirt, マント cape, リボン ribbon,
    // 尻尾/しっぽ tail, 袖 sleeve). coat_tails comes before tail so "CoatTail" is coat tails (a
    // two-word match beats one word anyway; the order only settles equal lengths).
    return {
        {"hair", {"hair", "ponytail", "pony tail", "pigtail", "pig tail", "twintail", "twin tail", "braid", "plait",
                  "bangs", "hairstyle", "hairdo", "髪"}, "hair", "strands"},
        {"skirt", {"skirt", "miniskirt", "kilt", "tutu", "petticoat", "スカート"}, "cotton", "wedges"},
        {"dress", {"dress", "gown", "frock", "ワンピース"}, "cotton", "wedges"},
        {"robe", {"robe", "kimono", "cassock"}, "cotton", "wedges"},
        {"cape", {"cape", "cloak", "mantle", "poncho", "マント"}, "denim", "sheet"},
        {"necktie", {"necktie", "neck tie", "tie", "bowtie", "bow tie", "cravat", "ネクタイ"}, "silk", "strands"},
        {"ribbon", {"ribbon", "sash", "streamer", "リボン"}, "silk", "strands"},
        {"tassel", {"tassel"}, "silk", "strands"},
        {"coat_tails", {"coat tail", "coattail", "swallowtail"}, "leather", "sheet"},
        {"tail", {"tail", "尻尾", "しっぽ"}, "hair", "strands"},
        {"sleeve", {"sleeve", "sode", "袖"}, "cotton", "sheet"},
        {"scarf", {"scarf", "scarves", "muffler", "shawl", "stole"}, "cotton", "sheet"},
        {"apron", {"apron", "pinafore"}, "cotton", "sheet"},
        {"flag", {"flag", "pennant"}, "cotton", "sheet"},
        {"banner", {"banner", "tapestry"}, "cotton", "sheet"},
        {"curtain", {"curtain", "drape", "drapery"}, "cotton", "sheet"},
        {"sail", {"sail", "jib"}, "denim", "sheet"},
        {"awning", {"awning", "canopy"}, "denim", "sheet"},
        // A tent is found by its shape alone: a pack's "tent" can be a pavilion roof of solid slabs.
        {"tent", {}, "denim", "sheet"},
        {"blanket", {"blanket", "duvet", "quilt", "bedspread", "bedsheet", "bed sheet"}, "cotton", "sheet"},
        {"tablecloth", {"tablecloth", "table cloth"}, "cotton", "sheet"},
    };
}

std::vector<std::string> split_words(std::string_view name) {
    std::vector<std::string> words;
    std::string word;
    CharKind prev = CharKind::separator;
    auto flush = [&] {
        if (!word.empty()) words.push_back(std::move(word));
        word.clear();
    };
    for (size_t i = 0; i < name.size(); ++i) {
        CharKind k = kind_of(static_cast<unsigned char>(name[i]));
        if (k == CharKind::separator) {
            flush();
            prev = k;
            continue;
        }
        bool boundary = false;
        if (prev != CharKind::separator) {
            if (is_letter(k) != is_letter(prev) || (!is_letter(k) && k != prev)) {
                boundary = true;  // letters | digits | non-ASCII runs
            } else if (k == CharKind::upper && prev == CharKind::lower) {
                boundary = true;  // camelCase hump: "front|Hair"
            } else if (k == CharKind::upper && prev == CharKind::upper && i + 1 < name.size() &&
                       kind_of(static_cast<unsigned char>(name[i + 1])) == CharKind::lower) {
                boundary = true;  // end of an acronym: "HAIR|Band"
            }
        }
        if (boundary) flush();
        word.push_back(to_lower(name[i]));
        prev = k;
    }
    flush();
    return words;
}

int match_pattern(std::string_view pattern, std::string_view name) {
    if (has_non_ascii(pattern)) {
        std::string p = ascii_lower(pattern);
        return !p.empty() && ascii_lower(name).find(p) != std::string::npos ? 1 : 0;
    }
    return match_words(pattern_words(pattern), split_words(name));
}

int classify_name(std::string_view name, const std::vector<GarmentClass>& classes) {
    std::vector<std::string> words = split_words(name);
    std::string lower_name = ascii_lower(name);
    int best = -1, best_words = 0;
    for (size_t c = 0; c < classes.size(); ++c) {
        for (const std::string& pattern : classes[c].patterns) {
            int n = 0;
            if (has_non_ascii(pattern)) {
                std::string p = ascii_lower(pattern);
                n = !p.empty() && lower_name.find(p) != std::string::npos ? 1 : 0;
            } else {
                n = match_words(pattern_words(pattern), words);
            }
            if (n > best_words) {  // strictly longer: an earlier class keeps a tie
                best_words = n;
                best = static_cast<int>(c);
            }
        }
    }
    return best;
}

int find_class(const std::vector<GarmentClass>& classes, std::string_view name) {
    for (size_t c = 0; c < classes.size(); ++c)
        if (classes[c].name == name) return static_cast<int>(c);
    return -1;
}

std::string check_pattern(std::string_view pattern) {
    if (has_non_ascii(pattern)) return {};
    std::vector<std::string> words = pattern_words(pattern);
    if (words.empty()) return "it has no letters or digits";
    for (const std::string& w : words) {
        size_t star = w.find('*');
        if (star != std::string::npos && star + 1 != w.size())
            return "`*` may only end a word (\"" + w + "\")";
        if (w == "*") return "a word cannot be only `*`";
    }
    return {};
}

}  // namespace weft
