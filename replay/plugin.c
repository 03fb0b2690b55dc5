// SPDX-License-Identifier: GPL-2.0
/*
 * plugin.c - open a policy by name (built-in) or from a shared object that
 * exports `const struct vms_policy vms_policy` (see include/vms-policy.h and
 * samples/policies/), check its ABI, and run its init with the parameters.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "replay.h"

int policy_open(const char *spec, struct policy_instance *out)
{
	const char *colon = strchr(spec, ':'), *params = colon ? colon + 1 : "";
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	char *name = strndup(spec, nlen);
	const struct vms_policy *p;

	memset(out, 0, sizeof(*out));
	if (!name)
		return vms_error("out of memory");
	if (strchr(name, '/') || (nlen > 3 && !strcmp(name + nlen - 3, ".so"))) {
		out->dl = dlopen(name, RTLD_NOW | RTLD_LOCAL);
		if (!out->dl) {
			vms_error("cannot load policy plugin '%s': %s", name, dlerror());
			goto err;
		}
		p = dlsym(out->dl, "vms_policy");
		if (!p) {
			vms_error("'%s' is not a vmscope policy: it exports no 'vms_policy' symbol", name);
			goto err;
		}
		if (p->abi != VMS_POLICY_ABI) {
			vms_error("'%s' was built for policy ABI %d; this vmscope speaks ABI %d: rebuild "
				  "it against this include/vms-policy.h", name, p->abi, VMS_POLICY_ABI);
			goto err;
		}
	} else {
		p = policy_find(name);
		if (!p) {
			vms_error("no policy '%s' (see vmscope replay --list; a plugin is a path to a .so)",
				  name);
			goto err;
		}
	}
	if (policies_check(&p, 1))
		goto err;
	if (p->init) {
		vms_error("%s", "");
		if (p->init(&out->priv, params)) {
			char why[512];

			/* built-in policies say why through vms_error; plugins on stderr */
			snprintf(why, sizeof(why), "%s", vms_last_error());
			vms_error("policy '%s' refused its parameters '%s'%s%s", p->name, params,
				  *why ? ": " : "", why);
			goto err;
		}
	} else if (*params) {
		vms_error("policy '%s' takes no parameters", p->name);
		goto err;
	}
	out->policy = p;
	out->label = strdup(spec);
	free(name);
	return 0;
err:
	if (out->dl)
		dlclose(out->dl);
	out->dl = NULL;
	free(name);
	return -1;
}

void policy_close(struct policy_instance *p)
{
	if (!p || !p->policy)
		return;
	if (p->policy->fini)
		p->policy->fini(p->priv);
	if (p->dl)
		dlclose(p->dl);
	free(p->label);
	memset(p, 0, sizeof(*p));
}
