/**
 * The job function categories a job can be tagged with (up to five, most
 * likely first), as the service description lists them. The only copy.
 */
export const JOB_CATEGORIES = [
	'Engineering (Software)',
	'Engineering (Hardware)',
	'DevOps',
	'Cybersecurity',
	'IT & Business Systems',
	'Technical Support',
	'Quality Assurance',
	'Design',
	'Product',
	'Data & Analytics',
	'Artificial Intelligence, Data Science, & Machine Learning',
	'Sales',
	'Marketing',
	'Growth',
	'Partnerships',
	'Customer Success',
	'Social Media',
	'Content',
	'Community',
	'Program Management',
	'Operations',
	'Business Development',
	'People (HR)',
	'People (Recruiting)',
	'Legal',
	'Finance',
	'Supply Chain',
	'Office & Admin',
	'Learning & Development',
	'Corporate Strategy',
	'Investing & Corporate Development',
	'Research',
	'Diversity & Inclusion',
	'Event Planning',
	'Procurement',
	'Vertical Specific',
] as const;

export type JobCategory = (typeof JOB_CATEGORIES)[number];

export const MAX_CATEGORIES_PER_JOB = 5;
