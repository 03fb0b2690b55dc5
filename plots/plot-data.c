// SPDX-License-Identifier: GPL-2.0
/*
 * plot-data.c - data extraction for `vmscope plot` (not built yet).
 */
#include "vms.h"
