module github.com/rivumi/rivumi-lint/tools/reviewdog

go 1.26.0

tool github.com/reviewdog/reviewdog/cmd/reviewdog

require (
	code.gitea.io/sdk/gitea v0.22.0 // indirect
	github.com/42wim/httpsig v1.2.3 // indirect
	github.com/davidmz/go-pageant v1.0.2 // indirect
	github.com/go-fed/httpsig v1.1.0 // indirect
	github.com/google/go-github/v74 v74.0.0 // indirect
	github.com/google/go-querystring v1.1.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/hashicorp/go-version v1.7.0 // indirect
	github.com/haya14busa/go-actions-toolkit v0.0.0-20200105081403-ca0307860f01 // indirect
	github.com/haya14busa/go-sarif v0.0.0-20240630170108-a3ba8d79599f // indirect
	github.com/mattn/go-shellwords v1.0.12 // indirect
	github.com/reva2/bitbucket-insights-api v1.0.0 // indirect
	github.com/reviewdog/errorformat v0.0.0-20250320004447-223c26dbe212 // indirect
	github.com/reviewdog/go-bitbucket v0.0.0-20201024094602-708c3f6a7de0 // indirect
	github.com/reviewdog/reviewdog v0.21.0 // indirect
	gitlab.com/gitlab-org/api/client-go v0.142.6 // indirect
	golang.org/x/build v0.0.0-20250902193327-e6a76329f415 // indirect
	golang.org/x/crypto v0.41.0 // indirect
	golang.org/x/oauth2 v0.30.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
	golang.org/x/sys v0.35.0 // indirect
	golang.org/x/time v0.12.0 // indirect
	google.golang.org/protobuf v1.36.8 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
