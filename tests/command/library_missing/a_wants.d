/* Names a file that is in no library directory. */
#pragma D depends_on library not_there.d
