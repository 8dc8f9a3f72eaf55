/** Word pools the generator draws from: enough variety for realistic search and filter tests. */
export const NAME_PREFIXES = [
	'Acme', 'Bright', 'Cedar', 'Delta', 'Ember', 'Falcon', 'Granite', 'Harbor', 'Iris', 'Juniper',
	'Kestrel', 'Lumen', 'Maple', 'Nimbus', 'Onyx', 'Pioneer', 'Quartz', 'Ridge', 'Summit', 'Tidal',
	'Umber', 'Vertex', 'Willow', 'Xenon', 'Yarrow', 'Zephyr', 'Atlas', 'Beacon', 'Cobalt', 'Drift',
];
export const NAME_SUFFIXES = [
	'Labs', 'Systems', 'Works', 'Health', 'Logistics', 'Analytics', 'Robotics', 'Foods', 'Energy',
	'Finance', 'Media', 'Cloud', 'Bio', 'Motors', 'Retail', 'Security', 'Studios', 'Networks',
];
export const TLDS = ['com', 'io', 'co', 'ai', 'net', 'de', 'fr', 'co.uk'];

export const INDUSTRIES = [
	'software', 'healthcare', 'logistics', 'fintech', 'retail', 'energy', 'media', 'manufacturing',
	'biotech', 'security', 'education', 'automotive',
];

export interface Place {
	city: string;
	country: string;
	region: string;
}

export const PLACES: readonly Place[] = [
	{ city: 'Berlin', country: 'Germany', region: 'Europe' },
	{ city: 'Munich', country: 'Germany', region: 'Europe' },
	{ city: 'Paris', country: 'France', region: 'Europe' },
	{ city: 'Lyon', country: 'France', region: 'Europe' },
	{ city: 'London', country: 'United Kingdom', region: 'Europe' },
	{ city: 'Amsterdam', country: 'Netherlands', region: 'Europe' },
	{ city: 'Madrid', country: 'Spain', region: 'Europe' },
	{ city: 'New York', country: 'United States', region: 'North America' },
	{ city: 'San Francisco', country: 'United States', region: 'North America' },
	{ city: 'Austin', country: 'United States', region: 'North America' },
	{ city: 'Toronto', country: 'Canada', region: 'North America' },
	{ city: 'Sao Paulo', country: 'Brazil', region: 'South America' },
	{ city: 'Singapore', country: 'Singapore', region: 'Asia' },
	{ city: 'Tokyo', country: 'Japan', region: 'Asia' },
	{ city: 'Bangalore', country: 'India', region: 'Asia' },
	{ city: 'Sydney', country: 'Australia', region: 'Oceania' },
];

export const SENIORITIES = ['Junior', 'Senior', 'Staff', 'Lead', 'Principal', 'Head of'];

/** Job titles by the category they most likely belong to (keys must be JOB_CATEGORIES values). */
export const TITLES_BY_CATEGORY: Record<string, readonly string[]> = {
	'Engineering (Software)': ['Backend Engineer', 'Frontend Developer', 'Python Developer', 'Go Engineer'],
	'Engineering (Hardware)': ['Hardware Engineer', 'Embedded Systems Engineer'],
	DevOps: ['DevOps Engineer', 'Site Reliability Engineer', 'Platform Engineer'],
	Cybersecurity: ['Security Engineer', 'Penetration Tester'],
	'Data & Analytics': ['Data Analyst', 'Analytics Engineer'],
	'Artificial Intelligence, Data Science, & Machine Learning': ['Machine Learning Engineer', 'Data Scientist'],
	Design: ['Product Designer', 'UX Researcher'],
	Product: ['Product Manager', 'Product Owner'],
	Sales: ['Account Executive', 'Sales Development Representative'],
	Marketing: ['Marketing Manager', 'Content Marketer'],
	'Customer Success': ['Customer Success Manager', 'Support Specialist'],
	Finance: ['Financial Analyst', 'Controller'],
	'People (Recruiting)': ['Recruiter', 'Talent Partner'],
	Legal: ['Legal Counsel', 'Compliance Officer'],
	Operations: ['Operations Manager', 'Business Operations Analyst'],
};

export const SKILLS = [
	'python', 'typescript', 'java', 'kubernetes', 'aws', 'sql', 'react', 'rust', 'terraform',
	'salesforce', 'figma', 'excel', 'spark', 'golang', 'docker',
];

export const JOB_TAGS = ['remote', 'hybrid', 'onsite', 'full-time', 'part-time', 'contract', 'visa-sponsorship'];

export const TECHNOLOGIES = ['SAP', 'Salesforce', 'HubSpot', 'Snowflake', 'AWS', 'Azure', 'Oracle', 'Workday'];

/** Evidence phrases per signal type; types missing here get a generic phrase built from their name. */
export const EVIDENCE: Record<string, readonly string[]> = {
	'cash-flow-constraints': ['cost reduction program', 'hiring freeze in finance', 'tight budget controls'],
	'outdated-legacy-systems': ['migrate away from legacy mainframe', 'modernize our COBOL stack'],
	'process-inefficiencies': ['streamline manual workflows', 'reduce operational bottlenecks'],
	'unclear-vision-and-mission': ['define our long-term strategy', 'align teams around a new vision'],
	'low-conversion-rates': ['improve funnel conversion', 'optimize lead-to-customer rate'],
	'poor-product-market-fit': ['find product-market fit', 'reposition the product'],
	'inconsistent-service-quality': ['raise support quality standards', 'reduce customer complaints'],
	'data-privacy-requirements': ['GDPR compliance program', 'build a data privacy office'],
};
