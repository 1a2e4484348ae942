// Field names matched to the keys of structured data: normalised (site_name = siteName), with a short table of
// other keys that name the same thing in schema.org, OpenGraph and common tables.
export const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Other keys that name the same thing in schema.org, OpenGraph and common tables. */
export const ALIASES: Record<string, string[]> = {
  title: ['headline', 'name'],
  headline: ['title', 'name'],
  price: ['priceamount', 'offersprice', 'lowprice', 'amount'],
  currency: ['pricecurrency', 'offerspricecurrency', 'pricecurrency'],
  email: ['emailaddress', 'mail', 'contactpointemail'],
  phone: ['telephone', 'tel', 'phonenumber', 'contactpointtelephone'],
  telephone: ['phone', 'tel'],
  url: ['website', 'homepage', 'link'],
  website: ['url', 'homepage'],
  company: ['organization', 'organisation', 'publisher', 'brand', 'worksfor', 'employer', 'sitename'],
  organization: ['organisation', 'company', 'publisher', 'worksfor'],
  organisation: ['organization', 'company', 'publisher', 'worksfor'],
  brand: ['brandname', 'manufacturer'],
  author: ['creator', 'authorname', 'byline'],
  date: ['datepublished', 'publishedtime', 'publisheddate', 'startdate', 'datecreated'],
  published: ['datepublished', 'publishedtime'],
  description: ['summary', 'abstract'],
  image: ['thumbnailurl', 'imageurl', 'photo'],
  address: ['streetaddress', 'location'],
  city: ['addresslocality', 'locality'],
  country: ['addresscountry'],
  location: ['address', 'addresslocality', 'place'],
  rating: ['ratingvalue', 'aggregateratingratingvalue'],
  sku: ['productid', 'mpn'],
  availability: ['offersavailability'],
};

/** The keys a field is looked up under, in order: its own name, then its aliases. */
export function namesFor(name: string): string[] {
  const n = norm(name);
  return [n, ...(ALIASES[n] ?? [])];
}
