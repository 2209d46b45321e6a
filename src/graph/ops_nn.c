/* ops_nn.c — placeholder; being written (Conv, pools, Gemm/MatMul, norms ...). */
#include "graph/ops.h"
const dlp__op_def dlp__ops_nn[] = {{NULL, NULL, 0, NULL, NULL, 0}};
