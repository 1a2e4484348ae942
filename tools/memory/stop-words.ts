// Words that carry no topic in a question to memory: English function words, question words and the light verbs
// questions are phrased with ("when did she go to …"). A relevance search leaves them out of the query, so an
// entry is not found, or ranked higher, for holding "the", "did" or "when". They stay in the index and in the
// all-words match, which is a filter and takes a query word for word. Data, not code: a list to extend.
const WORDS = `
a about above after again against ago all almost also am among an and another any anyone anything are aren aren't
as at be became because become been before being below between both but by can cannot could couldn couldn't did
didn didn't do does doesn doesn't doing don don't done down during each either else ever every few for from
further get gets getting got had hadn hadn't has hasn hasn't have haven haven't having he he'd he'll he's her here
here's hers herself him himself his how how's however i i'd i'll i'm i've if in into is isn isn't it it's its
itself just kind let let's ll many me might mine more most much must mustn mustn't my myself neither no nor not
now of off often on once one ones only or other others otherwise ought our ours ourselves out over own per
quite rather re really s same shall shan shan't she she'd she'll she's should shouldn shouldn't since so some
sort such t than that that's the their theirs them themselves then there there's these they they'd they'll
they're they've thing things this those though through thus to too type under until up upon us ve very was
wasn wasn't way we we'd we'll we're we've were weren weren't what what's whatever when when's whenever where
where's whereas wherever whether which while who who's whoever whole whom whose why why's will with within without
won won't would wouldn wouldn't yet you you'd you'll you're you've your yours yourself yourselves
go goes going gone went
`;

export const STOP_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));
