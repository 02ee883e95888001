// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/atomic_file.hpp"

#include "inflight/write_all.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace inflight {
namespace {

namespace fs = std::filesystem;

// The kernel's own limit on links followed in one lookup (MAXSYMLINKS).
constexpr int kMaxSymlinkHops = 40;

WriteFailure failed(std::string step, int error) { return WriteFailure{std::move(step), error, false, false}; }

// The file a save replaces: a symlink's final target, so that the rename replaces the file it
// points to and the link itself stays a link (renaming over the link would turn it into a
// plain file and leave the file it pointed to stale). A dangling link names the file to create.
std::optional<WriteFailure> resolve_links(std::string &path)
{
    for (int hops = 0;; ++hops) {
        struct stat st { };
        if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
            return std::nullopt;
        if (hops == kMaxSymlinkHops)
            return failed("following its symbolic links", ELOOP);
        std::error_code ec;
        const fs::path target = fs::read_symlink(path, ec);
        if (ec)
            return failed("reading its symbolic link", ec.value());
        path = target.is_absolute() ? target.string() : (fs::path(path).parent_path() / target).string();
    }
}

std::string temporary_name(const fs::path &target)
{
    static thread_local std::mt19937_64 random{std::random_device{}()};
    char suffix[24];
    std::snprintf(suffix, sizeof suffix, ".tmp-%016llx", static_cast<unsigned long long>(random()));
    // Hidden, beside the target: the rename stays within one filesystem.
    return (target.parent_path() / ("." + target.filename().string() + suffix)).string();
}

std::string directory_of(const std::string &path)
{
    const fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

// After the rename, the directory entry itself: without this a power cut can bring back the
// old name's inode. Filesystems that cannot sync a directory say EINVAL; nothing to do there.
int sync_directory(const std::string &dir)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int error = 0;
    if (::fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP)
        error = errno;
    ::close(fd);
    return error;
}

} // namespace

std::string WriteFailure::text() const { return error == 0 ? step : step + ": " + std::strerror(error); }

std::string WriteFailure::message(std::string_view action, std::string_view path) const
{
    std::string m = "cannot " + std::string(action) + " " + std::string(path) + ": " + text();
    if (replaced)
        m += "; the new contents are in place but may not survive a crash";
    else if (target_existed && error != 0)
        m += "; the file on disk is unchanged";
    else
        m += "; nothing was written";
    return m;
}

std::optional<WriteFailure> write_file_atomically(const std::string &path, std::string_view bytes,
                                                  const AtomicWriteOptions &options)
{
    std::string target = path;
    if (auto f = resolve_links(target))
        return f;

    struct stat old { };
    bool existed = true;
    if (::stat(target.c_str(), &old) != 0) {
        if (const int error = errno; error != ENOENT)
            return failed("looking at the file", error);
        existed = false;
    }
    const auto fail = [&](std::string step, int error) {
        WriteFailure f = failed(std::move(step), error);
        f.target_existed = existed;
        return f;
    };
    if (existed && S_ISDIR(old.st_mode))
        return fail("it is a directory", 0);
    if (existed && !S_ISREG(old.st_mode))
        return fail("it is not a regular file (a device, a FIFO or a socket)", 0);
    if (existed)
        for (const std::string &input : options.inputs) {
            struct stat in { };
            if (::stat(input.c_str(), &in) == 0 && in.st_dev == old.st_dev && in.st_ino == old.st_ino)
                return fail("it is the input file " + input, 0);
        }

    // O_EXCL: a name another process (or a leftover) holds is never written through.
    std::string temporary;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temporary = temporary_name(target);
        fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, existed ? old.st_mode & 07777 : 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        const int error = errno; // before the message's allocations
        return fail("creating a temporary file in " + directory_of(target), error);
    }
    // `error` is read at the call, before the step's name is made into a string.
    const auto abandon = [&](const char *step, int error) {
        if (fd >= 0)
            ::close(fd);
        ::unlink(temporary.c_str());
        return fail(step, error);
    };

    if (existed) {
        // The replacement is the same file to its users: its owner (where this process may
        // give it away, as root can; where it may not, the file becomes this user's, as any
        // editor's save makes it) and its exact permission bits, which the umask trimmed at
        // open and a chown clears the set-id bits of.
        if (old.st_uid != ::geteuid() || old.st_gid != ::getegid()) [[maybe_unused]]
            const int ignored = ::fchown(fd, old.st_uid, old.st_gid);
        if (::fchmod(fd, old.st_mode & 07777) != 0)
            return abandon("setting its permissions", errno);
    }
    if (const int error = write_all(fd, bytes))
        return abandon("writing", error);
    if (::fsync(fd) != 0)
        return abandon("syncing it to disk", errno);
    // close() reports what a network filesystem could not write back; the descriptor is gone
    // whatever it says, so it is not closed again.
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0)
        return abandon("closing it", errno);
    if (::rename(temporary.c_str(), target.c_str()) != 0)
        return abandon("replacing the file", errno);
    if (const int error = sync_directory(directory_of(target))) {
        WriteFailure f = fail("syncing its directory", error);
        f.replaced = true;
        return f;
    }
    return std::nullopt;
}

} // namespace inflight
