/**
 * The event types of social listening the service documents (service spec, "Events"): `events list`
 * and `events tail` check `--type` against them before sending (the service answers 422 for another),
 * `--unchecked-filters` sends one it added since; the sandbox accepts these and no other.
 */
export const EVENT_TYPES = ['new_post', 'bio_change', 'follower_threshold'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
