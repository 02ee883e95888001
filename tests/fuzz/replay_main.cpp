// SPDX-License-Identifier: GPL-3.0-or-later
// The fuzz target's inputs replayed without libFuzzer (any compiler, the normal build): each
// argument is a file or a directory of files, each file one input. ctest's fuzz_replay runs the
// seed corpus (scenes/, tests/fuzz/corpus) and every input that ever failed (tests/fuzz/regressions).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

int main(int argc, char **argv)
{
    std::size_t inputs = 0;
    auto replay = [&](const std::filesystem::path &p) {
        std::ifstream in(p, std::ios::binary);
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
        ++inputs;
    };
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg = argv[i];
        if (std::filesystem::is_directory(arg)) {
            std::vector<std::filesystem::path> files;
            for (const auto &e : std::filesystem::recursive_directory_iterator(arg))
                if (e.is_regular_file())
                    files.push_back(e.path());
            std::sort(files.begin(), files.end()); // the same order on every machine
            for (const auto &f : files)
                replay(f);
        } else {
            replay(arg);
        }
    }
    std::printf("replayed %zu inputs\n", inputs);
    return inputs ? 0 : 1;
}
