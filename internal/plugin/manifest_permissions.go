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
	}
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
