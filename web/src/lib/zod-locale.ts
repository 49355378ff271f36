import { config, locales } from 'zod/mini';

// zod/mini sets no locale (classic zod sets English with its first schema): without this, a check that has no
// message of its own would say "Invalid input" where classic zod said e.g. "Invalid input: expected string, received
// number". Imported by the modules whose forms validate with zod/mini schemas, which load with them (decision 017).
config(locales.en());
