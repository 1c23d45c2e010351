package refs

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// pkgInfo is what a package.json says about what its runners can run.
type pkgInfo struct {
	scripts map[string]bool
	deps    map[string]bool // names a binary may have: dependencies and their last segment
	why     string          // not read: why
	err     error
}

// parsePackageJSON reads the scripts and dependency names of a
// package.json. encoding/json bounds nesting and runs in linear time.
func parsePackageJSON(data []byte) (*pkgInfo, error) {
	var raw struct {
		Scripts              map[string]json.RawMessage `json:"scripts"`
		Bin                  json.RawMessage            `json:"bin"`
		Dependencies         map[string]json.RawMessage `json:"dependencies"`
		DevDependencies      map[string]json.RawMessage `json:"devDependencies"`
		OptionalDependencies map[string]json.RawMessage `json:"optionalDependencies"`
		PeerDependencies     map[string]json.RawMessage `json:"peerDependencies"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("parse package.json: %w", err)
	}
	p := &pkgInfo{scripts: map[string]bool{}, deps: map[string]bool{}}
	for k := range raw.Scripts {
		p.scripts[k] = true
	}
	for _, m := range []map[string]json.RawMessage{raw.Dependencies, raw.DevDependencies, raw.OptionalDependencies, raw.PeerDependencies} {
		for k := range m {
			p.deps[k] = true
			p.deps[k[strings.LastIndexByte(k, '/')+1:]] = true
			for _, b := range knownBins[k] {
				p.deps[b] = true
			}
		}
	}
	var bins map[string]json.RawMessage
	if json.Unmarshal(raw.Bin, &bins) == nil {
		for k := range bins {
			p.deps[k] = true
		}
	}
	return p, nil
}

// knownBins are binaries a package installs under another name than its
// own, which the agent may run through `pnpm NAME`, `yarn NAME` or
// `bun run NAME`.
var knownBins = map[string][]string{
	"typescript":               {"tsc", "tsserver"},
	"@playwright/test":         {"playwright"},
	"@biomejs/biome":           {"biome"},
	"@changesets/cli":          {"changeset"},
	"@angular/cli":             {"ng"},
	"@vue/cli-service":         {"vue-cli-service"},
	"@sveltejs/kit":            {"svelte-kit"},
	"@redwoodjs/cli":           {"rw", "redwood"},
	"@nestjs/cli":              {"nest"},
	"@storybook/cli":           {"sb", "storybook"},
	"@microsoft/api-extractor": {"api-extractor"},
	"@arethetypeswrong/cli":    {"attw"},
	"npm-run-all":              {"run-p", "run-s"},
	"npm-run-all2":             {"run-p", "run-s"},
	"concurrently":             {"conc"},
	"drizzle-kit":              {"drizzle-kit"},
	"@tauri-apps/cli":          {"tauri"},
	"@electron-forge/cli":      {"electron-forge"},
}

func (rv *Resolver) pkg(p string) *pkgInfo {
	if info, ok := rv.pkgs[p]; ok {
		return info
	}
	f := rv.read(p)
	info := &pkgInfo{why: f.why, err: f.err}
	if f.data != nil {
		parsed, err := parsePackageJSON(f.data)
		if err != nil {
			info.why = p + ": " + err.Error()
		} else {
			info = parsed
		}
	}
	rv.pkgs[p] = info
	return info
}

// nearest returns the nearest file called name at or above dir ("" when
// none), with exact names.
func (rv *Resolver) nearest(dir string, names []string) (string, error) {
	for _, d := range ancestors(dir) {
		for _, n := range names {
			_, ok, err := rv.entry(d, n)
			if err != nil {
				return "", err
			}
			if ok {
				return path.Join(d, n), nil
			}
		}
	}
	return "", nil
}

// script resolves a package script: the nearest package.json at or
// above the directory the runner runs in (npm, pnpm, yarn and bun look
// upward for it), or the root's, has it.
func (rv *Resolver) script(dir string, r Ref) Result {
	cwds, stop, err := rv.cwds(dir, r.Dir)
	if err != nil {
		return Result{Status: NotChecked, Why: err.Error(), Err: err}
	}
	if r.Dir == "" {
		cwds = cwds[:1] // the file's directory; the root's package.json is added below
	}
	var files []string
	seen := map[string]bool{}
	for _, c := range append(cwds, "") {
		p, err := rv.nearest(c, []string{"package.json"})
		if err != nil {
			return Result{Status: NotChecked, Why: err.Error(), Err: err}
		}
		if p != "" && !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	unknown := stop
	binary := false
	for _, p := range files {
		info := rv.pkg(p)
		if info.err != nil {
			return Result{Status: NotChecked, Why: info.err.Error(), Err: info.err}
		}
		if info.why != "" {
			unknown = info.why
			continue
		}
		if info.scripts[r.Target] {
			return Result{Status: Resolved, Path: p}
		}
		if r.MayBeBinary && info.deps[r.Target] {
			binary = true
		}
	}
	switch {
	case unknown != "":
		return Result{Status: NotChecked, Why: unknown}
	case binary:
		return Result{Status: NotChecked, Why: r.Tool + " would run the binary " + r.Target + " of a dependency"}
	case len(files) == 0:
		return Result{Status: Unresolved, Why: "no package.json in " + dirName(path.Join(dir, r.Dir)) + " or a directory above it"}
	}
	return Result{Status: Unresolved, Why: "no script " + r.Target + " in " + strings.Join(files, ", ")}
}
