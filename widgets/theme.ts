/** Font for everything drawn on a screen canvas (hosts may not set one). */
export const SCREEN_FONT = '"PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "Helvetica Neue", Arial, sans-serif';
