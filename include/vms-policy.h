/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vms-policy.h - the interface between `vmscope replay` and a reclaim policy,
 * built in (replay/policy-*.c) or loaded from a shared object
 * (`vmscope replay --policy ./mypolicy.so`). This header is all a plugin
 * needs; it uses no other vmscope header.
 *
 * A policy is one `const struct vms_policy`. A plugin exports it under the
 * symbol name `vms_policy` (see samples/policies/). Replay calls, for every
 * decision record rebuilt from a recording:
 *  1. init(&priv, params) once, before the first decision (optional);
 *  2. the hooks the policy sets, each with the record's inputs; a hook that
 *     is NULL, or that returns VMS_DEFER, leaves that decision to the
 *     baseline (the recording kernel's own logic);
 *  3. fini(priv) once at the end (optional).
 * Hooks must not keep pointers to the inputs after they return.
 *
 * Provenance: every input carries how firm it is (enum vms_prov). Sampled
 * inputs come from counter samples up to one sampling interval old; a hook
 * may treat weak inputs with care, and replay reports the weakest
 * provenance of the inputs behind each answer.
 */
#ifndef VMS_POLICY_H
#define VMS_POLICY_H

#define VMS_POLICY_ABI 1	/* bump on any change of the structs below */
#define VMS_DEFER (-1)		/* a hook's answer: "the baseline decides" */

enum vms_prov {
	VMS_PROV_EXACT = 0,	/* from an event of the recording */
	VMS_PROV_SAMPLED,	/* from a counter sample (see sample_age_ms) */
	VMS_PROV_INFERRED,	/* derived through a model (e.g. the refault snapshot) */
	VMS_PROV_UNKNOWN,	/* not in the recording: a default was used */
};

enum vms_reclaimer { VMS_KSWAPD, VMS_DIRECT, VMS_MEMCG, VMS_OTHER };

enum vms_scan_balance {
	VMS_SCAN_EQUAL,		/* both types by size (near OOM) */
	VMS_SCAN_FRACT,		/* both types, by fraction[] */
	VMS_SCAN_ANON,		/* anon only */
	VMS_SCAN_FILE,		/* file only */
};

struct vms_value {
	long long v;
	enum vms_prov prov;
};

/* The inputs of one reclaim pass (one priority step of one reclaimer). */
struct vms_pass_input {
	enum vms_reclaimer reclaimer;
	int priority;			/* exact: 12 (DEF_PRIORITY) down to 0 */
	int order;
	struct vms_value inactive_anon, active_anon, inactive_file, active_file;	/* pages */
	struct vms_value free_pages, high_wmark;	/* node; high includes boost */
	struct vms_value boost;		/* pages of watermark boost on the node */
	struct vms_value swappiness;	/* 0..200 */
	struct vms_value swap_free;	/* pages; 0 = no swap to reclaim anon into */
	struct vms_value refault_file;	/* activating file refaults since the last cycle ended */
	struct vms_value refault_anon;
	/* 5.8+ cost model (latent kernel state): inferred from the recording's own scans */
	struct vms_value anon_cost, file_cost;
	double sample_age_ms;
};

/* Answer of the scan-balance hook. */
struct vms_scan_decision {
	enum vms_scan_balance balance;
	unsigned long long fraction_anon, fraction_file;	/* VMS_SCAN_FRACT only */
};

/* A whole kswapd run (balance_pgdat) that reclaimed nothing. */
struct vms_kswapd_run {
	int nid;
	int lowest_priority;
	int runs_since_success;		/* zero-reclaim runs before this one (kswapd_failures) */
	int cache_trim_mode;		/* the baseline's cache_trim_mode at the run's last pass */
	struct vms_pass_input last_pass;
};

struct vms_policy {
	int abi;			/* VMS_POLICY_ABI */
	const char *name;		/* short, unique: [a-z0-9.-]+ */
	const char *description;	/* one line */
	const char *kernels;		/* kernel versions it models, e.g. "5.3-6.18" */
	/* Parse "k=v,k=v" parameters into *priv. Return: 0, or -1 (bad parameter; print why on stderr). */
	int (*init)(void **priv, const char *params);
	void (*fini)(void *priv);
	/* Deactivate (age) the active list of @file's type in this pass? 1/0, or VMS_DEFER. */
	int (*deactivate)(void *priv, const struct vms_pass_input *in, int file);
	/* Which LRU types to scan. Return: 0 with *out set, or VMS_DEFER. */
	int (*scan_balance)(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out);
	/* Call the shrinkers in this pass? 1/0, or VMS_DEFER. */
	int (*shrink_slab)(void *priv, const struct vms_pass_input *in);
	/* kswapd run reclaimed nothing: restart its priority loop (1) or count a failure (0), or VMS_DEFER. */
	int (*kswapd_retry)(void *priv, const struct vms_kswapd_run *run);
};

#endif
