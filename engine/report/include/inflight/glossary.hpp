// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The words a student meets in the narration, the graph and the lists, each explained once.
// The app's Help ▸ Glossary shows them, and a test holds the narration to them: every kernel
// identifier and every domain word it uses has an entry here.

#include <span>
#include <string_view>
#include <vector>

namespace inflight {

struct GlossaryEntry {
    std::string_view term;    // the name shown as the entry's title
    std::string_view spelled; // every spelling the texts use, '|' between them (the term included)
    std::string_view meaning; // one or two sentences, for a student
};

// The spellings of one entry (its `spelled` split at '|').
std::vector<std::string_view> glossary_spellings(const GlossaryEntry &entry);

// Every entry, in the order a lesson meets them.
std::span<const GlossaryEntry> glossary();

// The entry one of whose spellings is `word` (case-sensitive for identifiers, as the kernel
// spells them; domain words also match with an upper-case first letter), or nullptr.
const GlossaryEntry *glossary_entry(std::string_view word);

// The entries of the terms a text uses (one- and two-word spellings), each once, in the order
// the text first uses them: what a reader hovering over that text may want explained.
std::vector<const GlossaryEntry *> glossary_terms_in(std::string_view text);

} // namespace inflight
