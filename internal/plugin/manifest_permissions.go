package plugin

import (
	"fmt"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
)

func (p *manifestParser) parsePermissions(e *ExtensionManifest, obj *jsonObject) {
	e.Permissions = contract.Permissions{}
	v, ok := obj.get("permissions")
	if !ok {
		return
	}
	const fix = `Write "permissions" as an array of strings, e.g. ["tools.register", "hooks.before_tool_call"]`
	items, ok := p.array("extension.permissions", v, fix)
	if !ok {
		return
	}
	for i, it := range items {
		field := fmt.Sprintf("extension.permissions[%d]", i)
		s, ok := p.str(field, it, fix)
		if !ok {
			continue
		}
		// The authoring guide says "`hook.*` permission required per hook
		// type"; an author who follows it word for word writes
		// "hook.before_tool_call". It means one thing, so it is read so,
		// with a warning that gives the real name.
		if name, ok := strings.CutPrefix(s, "hook."); ok {
			if _, known := contract.LookupHook(name); known {
				real := contract.HookPermissionPrefix + name
				p.warn(field, fmt.Sprintf("permission %q is read as %q, the name synaps and SynapsCLI use; write %q", s, real, real))
				s = real
			}
		}
		switch {
		case slices.Contains(contract.ReservedPermissions, s):
			p.fail(field, fmt.Sprintf("permission %q is reserved and never granted", s),
				`Remove it; to change how a tool behaves, declare "tools.intercept" and handle the before_tool_call hook`)
			continue
		case !contract.KnownPermission(s):
			fix := "Use one of: " + strings.Join(knownPermissionList(), ", ")
			if sug := suggest(s, allPermissions()); sug != "" {
				fix = fmt.Sprintf("Did you mean %q? ", sug) + fix
			}
			p.fail(field, fmt.Sprintf("unknown permission %q", s), fix)
			continue
		}
		if e.Permissions[s] {
			p.warn(field, fmt.Sprintf("permission %q is listed more than once", s))
			continue
		}
		e.Permissions[s] = true
		e.PermissionList = append(e.PermissionList, s)
		if why := contract.Unsupported(s); why != "" {
			p.warn(field, fmt.Sprintf("permission %q: %s", s, why))
		}
	}
}

// checkDoesSomething warns about an extension that can do nothing: no hook
// in the manifest, no registration permission and no permission that would
// let it subscribe to a hook at initialize. SynapsCLI refuses such a
// manifest ("must subscribe to at least one hook or request a registration
// permission"); synaps loads it, since it harms nothing, and says why it
// is idle.
//
// A manifest without any permission is left alone: it is a test double or
// a stub, and says so plainly.
func (p *manifestParser) checkDoesSomething(e *ExtensionManifest) {
	if len(e.Hooks) > 0 || len(e.PermissionList) == 0 {
		return
	}
	for perm := range e.Permissions {
		if contract.Registration(perm) || strings.HasPrefix(perm, contract.HookPermissionPrefix) {
			return
		}
		for _, h := range contract.Hooks {
			if h.Permission == perm {
				return
			}
		}
	}
	p.warn("extension", "the extension subscribes to no hook and holds no registration permission ("+
		strings.Join(contract.RegistrationPermissions, ", ")+"), so it can do nothing; SynapsCLI refuses such a manifest. Add a hook to extension.hooks or the permission of what it offers")
}

// knownPermissionList lists the declarable permissions for error messages,
// the per-hook ones as hooks.<hook_name>.
func knownPermissionList() []string {
	return append(slices.Clone(contract.GroupPermissions), contract.HookPermissionPrefix+"<hook_name> (hook_name: "+strings.Join(contract.HookNames(), ", ")+")")
}

// allPermissions lists every declarable permission, spelled out.
func allPermissions() []string {
	all := slices.Clone(contract.GroupPermissions)
	for _, h := range contract.HookNames() {
		all = append(all, contract.HookPermissionPrefix+h)
	}
	return all
}
