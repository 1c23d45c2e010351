package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

const (
	sarifSchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion   = "2.1.0"
	driverName     = "rivumi-lint"
	driverURI      = "https://github.com/rivumi/rivumi-lint"
	// sarifSrcRoot is the uriBaseId of every artifact: the repository root
	// (GitHub code scanning and the SARIF viewers resolve it to the checkout).
	sarifSrcRoot = "%SRCROOT%"
	// sarifFingerprintKey is the partial fingerprint GitHub code scanning
	// matches results on across runs.
	sarifFingerprintKey = "primaryLocationLineHash"
)

// MaxSARIFResults is GitHub code scanning's hard limit of results per run: a
// log with more is rejected whole. Options.SARIFResultLimit lowers it.
const MaxSARIFResults = 25000

// SARIF writes r as one SARIF 2.1.0 log with one run (§7 sarif), in a form
// GitHub code scanning accepts:
//
//   - tool.driver lists every rule of lint.Rules(), whether it fired or not,
//     and each result points at its rule by ruleId and ruleIndex;
//   - each result has one location: the repo-relative path as a relative
//     URI (escapeURIPath) against %SRCROOT%, and a region. GitHub needs
//     region.startLine to place an alert, so a whole-file finding (Line 0)
//     gets startLine 1 and no column; columns count UTF-16 code units
//     (run.columnKind);
//   - a user-level file (~/…) is not in the repository: its result has no
//     physical location (GitHub shows no alert for it; it still counts and
//     shows in other viewers), a logical location with the ~/ path, and the
//     path at the start of the message;
//   - the message is what code scanning shows a reader: it goes through
//     messageText (controls and format characters shown as \xNN, \uXXXX),
//     while the location keeps the exact path (percent-encoded) and the
//     fingerprint hashes the exact message;
//   - partialFingerprints.primaryLocationLineHash is the hex SHA-256 of
//     rule id, path and the message with its digits removed (counts, sizes
//     and positions change without the problem changing), then ":N" where N
//     numbers results with the same hash in output order, as GitHub's own
//     hashes do. Line numbers are left out so that an alert survives edits
//     above it;
//   - at most 25,000 results (GitHub rejects a run with more), the most
//     severe kept; when some are left out, run.invocations carries a
//     notification saying how many.
func SARIF(w io.Writer, r *lint.Result, o Options) error {
	rules := lint.Rules()
	index := make(map[string]int, len(rules))
	driver := sarifDriver{
		Name:            driverName,
		Version:         o.ToolVersion,
		SemanticVersion: semanticVersion(o.ToolVersion),
		InformationURI:  driverURI,
		Rules:           make([]sarifRule, 0, len(rules)),
	}
	for i, rule := range rules {
		index[rule.ID] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID:                   rule.ID,
			Name:                 rule.Name,
			ShortDescription:     sarifMessage{Text: rule.Summary},
			FullDescription:      sarifMessage{Text: rule.Doc},
			Help:                 sarifHelp{Text: rule.Doc + "\n" + rule.URL(), Markdown: sarifHelpMarkdown(rule)},
			HelpURI:              rule.URL(),
			DefaultConfiguration: sarifConfiguration{Level: sarifLevel(rule.Default)},
			Properties: sarifRuleProperties{
				Tags:             rule.Tags(),
				Precision:        rule.Precision,
				SecuritySeverity: rule.SecuritySeverity,
			},
		})
	}

	findings := orderFindings(r)
	var invocations []sarifInvocation
	maxResults := MaxSARIFResults
	if o.SARIFResultLimit > 0 && o.SARIFResultLimit < maxResults {
		maxResults = o.SARIFResultLimit
	}
	if n := len(findings) - maxResults; n > 0 {
		findings = findings[:maxResults]
		invocations = []sarifInvocation{{
			ExecutionSuccessful: true,
			ToolExecutionNotifications: []sarifNotification{{
				Level: "warning",
				Message: sarifMessage{Text: fmt.Sprintf("%s left out: GitHub code scanning accepts at most %d results per run; the most severe are kept.",
					plural(n, "result", "results"), maxResults)},
			}},
		}}
	}
	results := make([]sarifResult, 0, len(findings))
	seen := make(map[string]int)
	for _, f := range findings {
		hash := sarifLineHash(f)
		seen[hash]++
		res := sarifResult{
			RuleID:              f.Rule,
			Level:               sarifLevel(f.Severity),
			Message:             sarifMessage{Text: messageText(f.Message)},
			PartialFingerprints: map[string]string{sarifFingerprintKey: fmt.Sprintf("%s:%d", hash, seen[hash])},
			BaselineState:       f.BaselineState(), // "new" or "unchanged" against --baseline (B3) and a change's base (B6)
		}
		if i, ok := index[f.Rule]; ok {
			res.RuleIndex = &i
		}
		if f.User {
			res.Message.Text = messageText(withPath(f.Path, f.Message))
			res.Locations = []sarifLocation{{LogicalLocations: []sarifLogicalLocation{{
				Name:               pathBase(f.Path),
				FullyQualifiedName: f.Path,
				Kind:               "resource",
			}}}}
		} else {
			region := &sarifRegion{StartLine: 1}
			if f.Line > 0 {
				region.StartLine = f.Line
				if f.Column > 0 {
					region.StartColumn = f.UTF16Column
				}
			}
			res.Locations = []sarifLocation{{PhysicalLocation: &sarifPhysicalLocation{
				ArtifactLocation: sarifArtifactLocation{URI: escapeURIPath(f.Path), URIBaseID: sarifSrcRoot},
				Region:           region,
			}}}
		}
		if f.Fix != nil && !f.User {
			res.Fixes = []sarifFix{newSARIFFix(f.Fix)}
		}
		if len(f.Directories) > 0 {
			dirs, total := capDirs(f.Directories, o.AllDirectories)
			res.Properties = &sarifResultProperties{Directories: dirs, DirectoriesTotal: total}
		}
		if f.Agent != "" {
			if res.Properties == nil {
				res.Properties = &sarifResultProperties{Directories: []string{}}
			}
			res.Properties.Agent, res.Properties.Agents = f.Agent, f.Agents
		}
		results = append(results, res)
	}

	log := sarifLog{
		Schema:  sarifSchemaURI,
		Version: sarifVersion,
		Runs: []sarifRun{{Tool: sarifTool{Driver: driver}, AutomationDetails: sarifAutomation(o.SARIFCategory),
			Invocations: invocations, Results: results, ColumnKind: sarifColumnKind}},
	}
	enc := json.NewEncoder(runnerSafeJSON(w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifHelpMarkdown is a rule's help as code scanning shows it: the
// summary, the doc with each "Fix:" as a paragraph of its own, how to
// change the severity, and the link to docs/rules.md.
func sarifHelpMarkdown(r lint.Rule) string {
	doc := strings.ReplaceAll(escapeMarkdown(r.Doc), " Fix: ", "\n\n**Fix:** ")
	return fmt.Sprintf("**%s %s**: %s\n\n%s\n\nDefault severity: **%s**. Set another in `.rivumi-lint.yaml` (`rules: {%s: off}`; off, notice, warning or error).\n\n[%s in the rule catalogue](%s)",
		r.ID, escapeMarkdown(r.Name), escapeMarkdown(r.Summary), doc, r.Default, r.ID, r.ID, r.URL())
}

// semverRe is Semantic Versioning 2.0.0 (semver.org's expression).
var semverRe = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// semanticVersion is tool.driver.semanticVersion: the version without its
// "v" when that is Semantic Versioning (a release, or Go's pseudo-version
// of a commit), else "" and the property is left out (a devel build).
func semanticVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if semverRe.MatchString(v) {
		return v
	}
	return ""
}

// sarifAutomation is run.automationDetails for --sarif-category: code
// scanning keeps one analysis per category, so two uploads with different
// categories do not replace each other. The id is the category followed
// by "/" (the run part left empty), as github/codeql-action's upload-sarif
// writes it for its own category input.
func sarifAutomation(category string) *sarifAutomationDetails {
	if category == "" {
		return nil
	}
	if !strings.HasSuffix(category, "/") {
		category += "/"
	}
	return &sarifAutomationDetails{ID: category}
}

// sarifLineHash is the stable part of a result's primaryLocationLineHash.
func sarifLineHash(f lint.Finding) string {
	h := sha256.New()
	io.WriteString(h, f.Rule)
	h.Write([]byte{0})
	io.WriteString(h, f.Path)
	h.Write([]byte{0})
	io.WriteString(h, strings.Map(func(r rune) rune {
		if '0' <= r && r <= '9' {
			return -1
		}
		return r
	}, f.Message))
	return hex.EncodeToString(h.Sum(nil))
}

// sarifLevel maps a severity to a SARIF level (notice is SARIF's "note").
func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	case lint.Notice:
		return "note"
	}
	return "none"
}

func pathBase(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool              sarifTool               `json:"tool"`
	AutomationDetails *sarifAutomationDetails `json:"automationDetails,omitempty"`
	Invocations       []sarifInvocation       `json:"invocations,omitempty"`
	Results           []sarifResult           `json:"results"`
	ColumnKind        string                  `json:"columnKind"`
}

// sarifColumnKind is the unit of every region's columns. SARIF 2.1.0
// §3.14.17 defaults run.columnKind to utf16CodeUnits, which is what GitHub
// code scanning reads; it is set explicitly anyway, and the columns are
// lint.Finding.UTF16Column (Column counts bytes, which would highlight a
// finding after é, CJK or an emoji too far right). fixes' deletedRegion
// uses byte offsets, which no column kind changes.
const sarifColumnKind = "utf16CodeUnits"

type sarifAutomationDetails struct {
	ID string `json:"id"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string              `json:"id"`
	Name                 string              `json:"name"`
	ShortDescription     sarifMessage        `json:"shortDescription"`
	FullDescription      sarifMessage        `json:"fullDescription"`
	Help                 sarifHelp           `json:"help"`
	HelpURI              string              `json:"helpUri"`
	DefaultConfiguration sarifConfiguration  `json:"defaultConfiguration"`
	Properties           sarifRuleProperties `json:"properties"`
}

// sarifHelp is a multiformatMessageString: code scanning shows markdown.
type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

// sarifRuleProperties are the rule properties code scanning reads: tags
// for its filters, precision, and security-severity, which makes a rule's
// alerts security alerts ranked by that score.
type sarifRuleProperties struct {
	Tags             []string `json:"tags"`
	Precision        string   `json:"precision"`
	SecuritySeverity string   `json:"security-severity,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string                 `json:"ruleId"`
	RuleIndex           *int                   `json:"ruleIndex,omitempty"`
	Level               string                 `json:"level"`
	Message             sarifMessage           `json:"message"`
	Locations           []sarifLocation        `json:"locations"`
	PartialFingerprints map[string]string      `json:"partialFingerprints"`
	BaselineState       string                 `json:"baselineState,omitempty"`
	Properties          *sarifResultProperties `json:"properties,omitempty"`
	Fixes               []sarifFix             `json:"fixes,omitempty"`
}

// newSARIFFix is a finding's Fix (X1) as a SARIF fix: one artifactChange
// per file, each edit a replacement whose deletedRegion is the byte range
// (byteOffset, byteLength: a binary region, so no column unit is assumed)
// and whose insertedContent is the new text.
func newSARIFFix(fix *lint.Fix) sarifFix {
	out := sarifFix{Description: sarifMessage{Text: fix.Description}}
	for _, e := range fix.Edits {
		n := len(out.ArtifactChanges)
		if n == 0 || out.ArtifactChanges[n-1].path != e.Path {
			out.ArtifactChanges = append(out.ArtifactChanges, sarifArtifactChange{path: e.Path,
				ArtifactLocation: sarifArtifactLocation{URI: escapeURIPath(e.Path), URIBaseID: sarifSrcRoot}})
			n++
		}
		ch := &out.ArtifactChanges[n-1]
		ch.Replacements = append(ch.Replacements, sarifReplacement{
			DeletedRegion:   sarifByteRegion{ByteOffset: e.Start.Offset, ByteLength: e.End.Offset - e.Start.Offset},
			InsertedContent: &sarifArtifactContent{Text: e.Text},
		})
	}
	return out
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	path             string
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifByteRegion       `json:"deletedRegion"`
	InsertedContent *sarifArtifactContent `json:"insertedContent,omitempty"`
}

// sarifByteRegion is a binary region; byteLength 0 is an insertion point.
type sarifByteRegion struct {
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
}

type sarifArtifactContent struct {
	Text string `json:"text"`
}

type sarifResultProperties struct {
	// Directories are the directories whose chain the finding affects.
	Directories []string `json:"directories"`
	// DirectoriesTotal is the full count when Directories is capped
	// (MaxListedDirectories, as in the JSON output).
	DirectoriesTotal int `json:"directories_total"`
	// Agent is the agent profiles the finding holds for (A4), joined by
	// commas, once one other than Rivumi is on; Agents is the same as a
	// list.
	Agent  string   `json:"agent,omitempty"`
	Agents []string `json:"agents,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}
