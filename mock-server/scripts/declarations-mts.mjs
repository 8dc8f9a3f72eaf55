// Build step: the declarations tsup writes as dist/*.d.ts become dist/*.d.mts. The repository's root
// lints every *.ts file outside its own dist/ with n8n's template config (`n8n-node lint`), which
// is not for the mock; .d.mts files are not *.ts to it. Imports between them then name .mjs, which
// TypeScript resolves to the .d.mts beside (the JavaScript stays dist/*.js; package.json's
// "types" conditions name the .d.mts files).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
for (const name of readdirSync(dist).filter((file) => file.endsWith('.d.ts'))) {
	const text = readFileSync(new URL(name, dist), 'utf8').replace(/(from '\.\/[^']+)\.js'/g, "$1.mjs'");
	writeFileSync(new URL(name.replace(/\.d\.ts$/, '.d.mts'), dist), text);
	rmSync(new URL(name, dist));
}
