// SPDX-License-Identifier: GPL-2.0
/*
 * policies.c - the one list of built-in replay policies (a policy is added
 * by one line here and one file replay/policy-NAME.c), its checks, and the
 * shared "k=v,k=v" parameter parser.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "replay.h"

extern const struct vms_policy policy_v6_18;
extern const struct vms_policy policy_v4_12_actual_reclaim;
extern const struct vms_policy policy_v5_3_refault_anon;
extern const struct vms_policy policy_v5_0_boost_noslab;
extern const struct vms_policy policy_v6_8_cache_trim;
extern const struct vms_policy policy_v2_6_33_mapped_activate;

const struct vms_policy *const builtin_policies[] = {
	&policy_v6_18,
	&policy_v4_12_actual_reclaim,
	&policy_v5_3_refault_anon,
	&policy_v5_0_boost_noslab,
	&policy_v6_8_cache_trim,
	&policy_v2_6_33_mapped_activate,
};

const int builtin_npolicies = sizeof(builtin_policies) / sizeof(builtin_policies[0]);

const struct vms_policy *policy_find(const char *name)
{
	int i;

	for (i = 0; i < builtin_npolicies; i++)
		if (!strcmp(builtin_policies[i]->name, name))
			return builtin_policies[i];
	return NULL;
}

int policies_check(const struct vms_policy *const *list, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		const struct vms_policy *p = list[i];

		if (!p || p->abi != VMS_POLICY_ABI)
			return vms_error("policy %d: ABI %d, this vmscope speaks %d", i, p ? p->abi : -1,
					 VMS_POLICY_ABI);
		if (!p->name || !*p->name || !p->description)
			return vms_error("policy %d: a name and a description are required", i);
		if (!p->deactivate && !p->scan_balance && !p->shrink_slab && !p->kswapd_retry &&
		    !p->mapped_once)
			return vms_error("policy '%s' has no decision hook", p->name);
		for (j = 0; j < i; j++)
			if (!strcmp(list[j]->name, p->name))
				return vms_error("two policies are called '%s'", p->name);
	}
	return 0;
}

int policy_params(const char *params, const char *const *keys, long long *vals, int nkeys)
{
	const char *p = params;

	while (p && *p) {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');
		size_t klen;
		char *num_end;
		int i;

		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end)
			return vms_error("policy parameter '%.*s' is not key=value", (int)(end - p), p);
		klen = eq - p;
		for (i = 0; i < nkeys; i++)
			if (strlen(keys[i]) == klen && !strncmp(keys[i], p, klen))
				break;
		if (i == nkeys)
			return vms_error("unknown policy parameter '%.*s'", (int)klen, p);
		errno = 0;
		vals[i] = strtoll(eq + 1, &num_end, 10);
		if (errno || num_end != end || num_end == eq + 1)
			return vms_error("policy parameter '%.*s' takes a whole number, not '%.*s'",
					 (int)klen, p, (int)(end - eq - 1), eq + 1);
		p = *end ? end + 1 : end;
	}
	return 0;
}
