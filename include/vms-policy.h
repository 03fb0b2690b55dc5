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

#define VMS_POLICY_ABI 4	/* bump on any change of the structs below (4: mapped_once) */
#define VMS_DEFER (-1)		/* a hook's answer: "the baseline decides" */
#define VMS_UNDECIDABLE (-2)	/* a hook's answer: "the recording lacks the input this needs" */

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

/*
 * lo..hi is the range the kernel's own value may have had at the decision
 * (v for exact inputs; for sampled ones the samples around the decision;
 * for inferred ones the model's uncertainty). Replay moves each input to lo
 * and hi to find which inputs decide an answer (its firmness).
 */
struct vms_value {
	long long v;
	enum vms_prov prov;
	long long lo, hi;
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
	struct vms_value swap_total;	/* pages of swap configured (total_swap_pages) */
	/*
	 * kswapd: balance_pgdat()'s running nr_boost_reclaim (boosted reclaim:
	 * may_swap = 0, 5.0-5.2 may_shrinkslab = 0). 0 and sampled when the
	 * node showed no boost; unknown when it did (the running value is not
	 * in the recording).
	 */
	struct vms_value boost_reclaim;
	struct vms_value refault_file;	/* activating file refaults since the last cycle ended */
	struct vms_value refault_anon;
	/* 5.8+ cost model (latent kernel state): inferred from the recording's own scans */
	struct vms_value anon_cost, file_cost;
	/* up to 5.7: reclaim_stat recent_scanned/recent_rotated, [0] anon, [1] file (inferred) */
	struct vms_value recent_scanned[2], recent_rotated[2];
	/*
	 * Where the pass sits in its episode's priority loop (exact, from the
	 * priority sequence): sweep 0 is the first run down from priority 12;
	 * each restart at a higher priority starts the next. The 6.18 labels:
	 * no_cache_trim_mode - a kswapd sweep after a first sweep that ran to
	 *   priority 1 and reclaimed nothing (6.9+ cache-trim retry);
	 * force_deactivate - the do_try_to_free_pages() retry sweep with both
	 *   deactivation bits forced (5.5+), after a full-walk retry failed
	 *   and some earlier pass skipped an active list with a target.
	 */
	int sweep;
	int no_cache_trim_mode, force_deactivate;
	double sample_age_ms;
	/*
	 * Recordings with exact inputs (BPF, see docs/record.md): the four LRU
	 * inputs above are then lruvec_page_state(), the rstat-flushed copy
	 * that prepare_scan_control()'s ratio and cache_trim_mode tests read
	 * (it lags the lists until the next stats flush), and lru_size[] is
	 * lruvec_lru_size(), the lists as get_scan_count() sizes the scan
	 * targets from them (exact, at the pass's first isolation).
	 * have_lru_size 0: lru_size[] is unset, the four inputs serve both.
	 */
	int have_lru_size;
	long long lru_size[4];		/* inactive anon, active anon, inactive file, active file */
};

/* Answer of the scan-balance hook. */
struct vms_scan_decision {
	enum vms_scan_balance balance;
	unsigned long long fraction_anon, fraction_file;	/* VMS_SCAN_FRACT only */
	unsigned long long denominator;	/* FRACT: 0 means fraction_anon + fraction_file */
	int round_up;			/* FRACT targets rounded up (4.20-5.x DIV64_U64_ROUND_UP) */
};

/* A kswapd run (balance_pgdat) whose first priority sweep reclaimed no LRU page. */
struct vms_kswapd_run {
	int nid;
	int lowest_priority;		/* of the first sweep: 1 when the loop ran to the end */
	int runs_since_success;		/* zero-reclaim runs before this one (kswapd_failures) */
	/* 6.18 shrink_node(): some first-sweep pass had cache_trim_mode on and reclaimed nothing */
	int cache_trim_mode_failed;
	/* shrinkers freed objects in the first sweep: sc.nr_reclaimed may count slab pages */
	int slab_freed;
	struct vms_pass_input last_pass;	/* the first sweep's last pass */
};

struct vms_policy {
	int abi;			/* VMS_POLICY_ABI */
	const char *name;		/* short, unique: [a-z0-9.-]+ */
	const char *description;	/* one line */
	const char *kernels;		/* kernel versions it models, e.g. "5.3-6.18" */
	/* Parse "k=v,k=v" parameters into *priv. Return: 0, or -1 (bad parameter; print why on stderr). */
	int (*init)(void **priv, const char *params);
	void (*fini)(void *priv);
	/* Each hook may also return VMS_UNDECIDABLE (needs an input the recording lacks). */
	/* Deactivate (age) the active list of @file's type in this pass? 1/0, or VMS_DEFER. */
	int (*deactivate)(void *priv, const struct vms_pass_input *in, int file);
	/* Which LRU types to scan. Return: 0 with *out set, or VMS_DEFER. */
	int (*scan_balance)(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out);
	/* Call the shrinkers in this pass? 1/0, or VMS_DEFER. */
	int (*shrink_slab)(void *priv, const struct vms_pass_input *in);
	/* kswapd run reclaimed nothing: restart its priority loop (1) or count a failure (0), or VMS_DEFER. */
	int (*kswapd_retry)(void *priv, const struct vms_kswapd_run *run);
	/*
	 * A mapped page of @file's type that the pass found referenced by one
	 * page table entry and not referenced before (not by more than one
	 * PTE, not an executable file mapping, not VM_LOCKED): activate it (1:
	 * <= 2.6.33 shrink_page_list(), and anon pages up to 5.7) or keep it on
	 * the inactive list with its referenced flag set (0: 2.6.34+ file
	 * pages, 5.8+ anon; FOLIOREF_KEEP), or VMS_DEFER. Asked for the passes
	 * whose kernel kept such pages (nr_ref_keep > 0): the recording shows
	 * how many, not the page's references, so @in cannot decide it.
	 */
	int (*mapped_once)(void *priv, const struct vms_pass_input *in, int file);
};

#endif
