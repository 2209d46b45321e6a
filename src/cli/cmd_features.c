#include "cli/cli.h"
int dlp_cmd_features(int argc, char **argv) { (void)argc; (void)argv; return cli_failf(1, "features: not built yet"); }
