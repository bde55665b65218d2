/* Nothing but a comment: with -x empty the program compiles, enables nothing and does not run. */
