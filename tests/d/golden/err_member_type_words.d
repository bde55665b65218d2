/* A member's type words are checked as a variable's are. */
struct words { short char c; };
BEGIN { trace(sizeof(struct words)); }
