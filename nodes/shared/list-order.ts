/** The order of every list the editor shows (Job Functions, the collection picker, the account's tags): by name as a reader sorts, case and accents aside. */
export const compareNames = (a: string, b: string): number => a.localeCompare(b, 'en', { sensitivity: 'base' });
