/**
 * `current_value`/`previous_value` of a signal: empty for `problems` (spec),
 * a meaningful before/after pair for each type of `changes`.
 */
import type { Source } from '../base/contract.mts';
import type { Random } from './random.mts';
import { PLACES, TECHNOLOGIES } from './vocabulary.mts';

export function signalValues(random: Random, group: string, type: string, source: Source): { current: string; previous: string } {
	if (group === 'problems') return { current: '', previous: '' };
	const slug = source.url_source.split('.')[0];
	switch (type) {
		case 'domain-url-change':
			return { previous: `${slug}-old.com`, current: source.url_source };
		case 'careers-url-change':
			return { previous: `https://${source.url_source}/careers`, current: `https://careers.${source.url_source}` };
		case 'jobboard-url-change':
			return { previous: `https://boards.greenhouse.io/${slug}`, current: `https://jobs.lever.co/${slug}` };
		case 'homepage-content-change':
			return { previous: `${source.name}: software for teams`, current: `${source.name}: the AI platform for teams` };
		case 'tech-change-planned':
		case 'tech-change-completed': {
			const [previous, current] = random.sample(TECHNOLOGIES, 2);
			return { previous, current };
		}
		default: {
			const [from, to] = random.sample(PLACES, 2);
			return { previous: `${from.city}, ${from.country}`, current: `${to.city}, ${to.country}` };
		}
	}
}
