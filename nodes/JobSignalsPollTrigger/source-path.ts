/**
 * The jobs path of One Source. A domain with a subdomain (a careers or jobs site, the form of the API's own url_job)
 * is resolved with the action node's locator (forSourceRef): the host as given, else its registered domain. The
 * resolution is kept in the node's static data, so only the first poll pays for it (committed with a successful poll).
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { domainCandidates, forSourceRef, sourcePath, type SourceRef } from '../shared/source-locator';
import { jobsOfSource } from '../shared/api/jobs';
import { PageWalk } from '../shared/pages/page-walk';

const FIELD = 'sourcePath';

export async function sourceJobsPath(context: IPollFunctions, ref: SourceRef): Promise<string> {
	if (ref.by === 'id' || domainCandidates(ref.value).length === 1) return sourcePath(ref, 'jobs');
	const data = context.getWorkflowStaticData('node');
	const saved = data[FIELD] as IDataObject | undefined;
	if (saved?.given === ref.value && typeof saved.path === 'string') return saved.path;
	const path = await forSourceRef(context.getNode(), ref, 'jobs', async (candidate) => {
		// The first page of the candidate's jobs: a 404 says the service tracks no such company.
		await new PageWalk(context, jobsOfSource('Job Signals (Polling) Trigger', candidate)).read({});
		return candidate;
	});
	data[FIELD] = { given: ref.value, path };
	return path;
}
