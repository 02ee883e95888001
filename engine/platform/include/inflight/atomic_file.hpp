// SPDX-License-Identifier: GPL-3.0-or-later
// Every file the app and the CLI write (a saved scene, a recovery copy, an export, `-o`) is
// written whole or not at all: a temporary file beside the target, every write checked, synced,
// closed, then renamed over the target and the directory synced. A full disk, a file size limit,
// an I/O error or a kill mid-write leaves the old file byte for byte, and the failure names
// the step and the errno's text.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight {

struct WriteFailure {
    // The step that failed ("writing", "creating a temporary file", ...), or a refusal that
    // wrote nothing ("it is a directory").
    std::string step;
    int error = 0; // the errno; 0 for a refusal
    bool target_existed = false;
    // Only the directory's sync failed: the new bytes are in place but may not survive a crash.
    bool replaced = false;

    // "writing: No space left on device", or the refusal alone.
    std::string text() const;
    // "cannot save PATH: writing: No space left on device; the file on disk is unchanged"
    // ("...; nothing was written" after a refusal or where there was no file; `action`: "save",
    // "write"...).
    std::string message(std::string_view action, std::string_view path) const;
};

struct AtomicWriteOptions {
    // Files the target must not be (the inputs an `-o` output would overwrite), compared by
    // device and inode, so another name or a link to an input is caught too.
    std::vector<std::string> inputs;
};

// Writes `bytes` as the file `path`; nullopt when done. A symlink is written through: the
// file it points to is replaced and the link stays a link. An existing file keeps its
// permission bits (and its owner, where this process may set it). A target that is not a
// regular file (a directory, a device, a FIFO) is refused.
std::optional<WriteFailure> write_file_atomically(const std::string &path, std::string_view bytes,
                                                  const AtomicWriteOptions &options = {});

} // namespace inflight
