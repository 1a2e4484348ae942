// Reads a gitleaks checkout: a work tree, or the bare git directory the fetch tool gives (read with `git show`).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface GitleaksSource {
  /** The commit read (HEAD of the checkout). */
  commit: string;
  read(path: string): string;
  list(dir: string): string[];
}

export function openGitleaks(root: string): GitleaksSource {
  const bare = existsSync(join(root, 'objects')) && existsSync(join(root, 'HEAD')) && !existsSync(join(root, '.git'));
  const git = (...args: string[]) => execFileSync('git', [bare ? `--git-dir=${root}` : `-C${root}`, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const commit = git('rev-parse', 'HEAD').trim();
  if (bare) {
    return {
      commit,
      read: (path) => git('show', `HEAD:${path}`),
      list: (dir) => git('ls-tree', '--name-only', `HEAD:${dir}`).split('\n').filter(Boolean),
    };
  }
  return { commit, read: (path) => readFileSync(join(root, path), 'utf8'), list: (dir) => readdirSync(join(root, dir)) };
}

export const RULES_DIR = 'cmd/generate/config/rules';

/** Which rules/*.go file defines each rule id: the file's name is the rule's provider family (aws, github, …). */
export function providerOfRules(src: GitleaksSource): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of src.list(RULES_DIR).filter((f) => f.endsWith('.go'))) {
    for (const m of src.read(`${RULES_DIR}/${file}`).matchAll(/RuleID:\s*"([^"]+)"/g)) out.set(m[1], file.replace(/\.go$/, ''));
  }
  return out;
}

/** Display names where the file name is not how the provider writes itself. */
const NAMES: Record<string, string> = {
  '1password': '1Password', aws: 'AWS', gcp: 'Google Cloud', github: 'GitHub', gitlab: 'GitLab', jwt: 'JSON Web Token',
  npm: 'npm', pypi: 'PyPI', openai: 'OpenAI', digitalocean: 'DigitalOcean', definednetworking: 'Defined Networking',
  droneci: 'Drone CI', easypost: 'EasyPost', flyio: 'Fly.io', frameio: 'Frame.io', gocardless: 'GoCardless',
  hashicorp: 'HashiCorp Terraform', hashicorp_vault: 'HashiCorp Vault', hubspot: 'HubSpot', huggingface: 'Hugging Face',
  intra42: 'Intra42', jfrog: 'JFrog', launchdarkly: 'LaunchDarkly', linkedin: 'LinkedIn', mailchimp: 'Mailchimp',
  maxmind: 'MaxMind', messagebird: 'MessageBird', newrelic: 'New Relic', nuget: 'NuGet', nytimes: 'New York Times',
  octopusdeploy: 'Octopus Deploy', planetscale: 'PlanetScale', privateai: 'Private AI', privatekey: 'private key',
  rapidapi: 'RapidAPI', readme: 'ReadMe', rubygems: 'RubyGems', sendgrid: 'SendGrid', sendinblue: 'Sendinblue',
  settlemint: 'SettleMint', sourcegraph: 'Sourcegraph', squarespace: 'Squarespace', sumologic: 'Sumo Logic',
  teams: 'Microsoft Teams', travisci: 'Travis CI', generic: 'generic', curl: 'curl', kubernetes: 'Kubernetes',
  clickhouse: 'ClickHouse', cohere: 'Cohere', coinbase: 'Coinbase', bitbucket: 'Bitbucket', azure: 'Azure',
  atlassian: 'Atlassian', adobe: 'Adobe', alibaba: 'Alibaba Cloud', openshift: 'OpenShift', postman: 'Postman',
};

export function providerName(stem: string): string {
  return NAMES[stem] ?? stem.charAt(0).toUpperCase() + stem.slice(1);
}
