#pragma D depends_on library c_third.d
