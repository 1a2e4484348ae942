// The commercial group's deliverables produced with the operator's language model (issue 23): what the order
// engine calls. Each producer returns {deliverable, usage, attempts} or throws ContentShapeError (the model
// kept missing the shape) or a GatewayError (no model: unavailable; the model server failed: upstream_error).
export { produceCopy, type CopyDeliverable } from './copy.js';
export { produceContent, produceBlog, produceNewsletter, type BlogPost, type Newsletter, type ContentDeliverable } from './content.js';
export { generateContent, type GeneratedContent } from './generate.js';
export { produceAds, parseAds, AD_VARIATIONS, type AdCopy, type AdVariation } from './ads.js';
export { produceEmails, parseEmails, EMAILS, type Email, type EmailSequence } from './emails.js';
export { produceProductDescriptions, parseProductDescriptions, PRODUCT_DESCRIPTIONS, type ProductDescription, type ProductDescriptions } from './products.js';
export { produceSocialPack, parseSocialPosts, SOCIAL_POSTS, type SocialPack, type SocialPost } from './social.js';
export { classifyDevTask, type DevClassification, type DevTier } from './dev-tiers.js';
export { produceDevTask, parseDevTask, type DevTaskDeliverable, type DevTaskOptions } from './dev-task.js';
export { ContentShapeError } from './errors.js';
export { callModel, type LlmSettings, type ChatMessage, type ModelReply } from './model.js';
export { CopyInput, ContentInput, GenerateInput, DevTaskInput, RevisionNotes, WordCount } from './schemas.js';
export { adLimits, postLimits, type AdLimits, type PostLimits } from './platforms.js';
export { countWords, wordRange, WORD_TOLERANCE } from './words.js';
export type { Produced, ProduceOptions } from './attempts.js';
export type { Usage } from './usage.js';
