/** A table of flags as a usage text shows them (the CLI's --help, record's and check-drift's). */

/** A flag table as usage lines: the flag and its value, then its meaning and default, wrapped under a column. */
export function usageLines(flags: readonly UsageFlag[]): string {
	const COLUMN = 20;
	const WIDTH = 96;
	return flags
		.map((flag) => {
			const head = `  --${flag.name}${flag.value ? ` ${flag.value}` : ''}`;
			const text = `${flag.meaning}${flag.required ? ' (required)' : flag.default === undefined ? '' : ` (default ${flag.default})`}`;
			const lines: string[] = [];
			let line = head.length + 2 > COLUMN ? `${head}  ` : head.padEnd(COLUMN);
			for (const word of text.split(' ')) {
				if (line.length + word.length > WIDTH && line.trim() !== '' && line.length > COLUMN) {
					lines.push(line.trimEnd());
					line = ' '.repeat(COLUMN);
				}
				line += `${word} `;
			}
			lines.push(line.trimEnd());
			return lines.join('\n');
		})
		.join('\n');
}

/** A flag as a usage shows it. */
export interface UsageFlag {
	name: string;
	/** The value's placeholder (none for a flag that takes no value). */
	value?: string;
	default?: string;
	required?: true;
	meaning: string;
}

