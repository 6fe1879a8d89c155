/**
 * Markdown that is not the author's prose, in one place for every reader of the text (the structure, the
 * analysis, the kind model, the evidence finders): template prompts in HTML comments, fenced code, links.
 */
export const HTML_COMMENT_RE = /<!--[\s\S]*?(?:-->|$)/g;
export const FENCE_RE = /(```|~~~)[\s\S]*?(?:\1|$)/g;
export const URL_RE = /\b(?:https?:\/\/|www\.)\S+/gi;
/** A markdown link, its text captured; bounded and never across a "[", so "![![![…" cannot backtrack. */
export const MD_LINK_RE = /\[([^\][\n]{0,500})\]\([^)\n]{0,2000}\)/g;

/** The text without template prompts (HTML comments): what the author and the template's headings say. */
export function withoutPrompts(text: string): string {
  return text.includes("<!--") ? text.replace(HTML_COMMENT_RE, "\n") : text;
}

/** The tracker's own notes and policies, which templates carry into every issue. */
export const POLICY_RE =
  /\b(?:github also notifies|notifies thousands of people|as per our github policy|we only address|code of conduct|contributing guidelines?|contribution guidelines?|search (?:the )?existing issues|existing (?:issues|discussions)|(?:will|may|might|are likely to|is likely to) be closed|support requests|stack ?overflow|discussions? (?:tab|forum|board)|for (?:support|general questions|usage questions)|issue tracker is (?:for|not)|bug tracker is (?:for|not)|this (?:template|form)\b|latest (?:version|release) of)\b/i;

/**
 * The tracker's notice itself ("This issue tracker is not for questions", "support requests … are likely to be
 * closed"): the paragraph that holds it is the tracker's in all its sentences.
 */
export const TRACKER_NOTICE_RE =
  /\b(?:(?:issue|bug) tracker is (?:for|not)|(?:are|is) likely to be closed|support requests (?:that|which) are|github also notifies)\b/i;
