#pragma D depends_on library a_first.d
