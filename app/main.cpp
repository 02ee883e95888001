// Placeholder until the application issue: the GUI is not built yet, so point at the CLI.
#include <cstdio>

int main()
{
    std::fputs("inflight: the graphical player is not built yet; use inflight-cli run SCENE\n", stderr);
    return 1;
}
