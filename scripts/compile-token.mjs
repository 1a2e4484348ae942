#!/usr/bin/env node
// Regenerates test/fixtures/token/TestUSDC.json (ABI + bytecode) from contracts/TestUSDC.sol with the npm
// `solc` compiler, for evmVersion paris (ganache 7.9 has no Cancun opcodes). Run: node scripts/compile-token.mjs
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourcePath = 'contracts/TestUSDC.sol';
const source = fs.readFileSync(path.join(root, sourcePath), 'utf8');
const input = {
  language: 'Solidity',
  sources: { [sourcePath]: { content: source } },
  settings: {
    evmVersion: 'paris',
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { '*': { TestUSDC: ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
for (const e of output.errors ?? []) process.stderr.write(`${e.formattedMessage}\n`);
if (errors.length) process.exit(1);
const c = output.contracts[sourcePath].TestUSDC;
const fixture = {
  contractName: 'TestUSDC',
  source: sourcePath,
  sourceSha256: createHash('sha256').update(source).digest('hex'),
  compiler: `solc ${solc.version()}`,
  evmVersion: 'paris',
  abi: c.abi,
  bytecode: `0x${c.evm.bytecode.object}`,
};
const out = path.join(root, 'test/fixtures/token/TestUSDC.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(fixture, null, 2)}\n`);
process.stdout.write(`wrote ${path.relative(root, out)} (${fixture.bytecode.length / 2 - 1} bytes of bytecode)\n`);
