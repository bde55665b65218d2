tick-0 {}
profile-100us {}
tick-3furlongs {}
profile:::tick-5001hz {}
